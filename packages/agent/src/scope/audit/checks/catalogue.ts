import type { KubeObject } from '@binnacle/common';
import { deprecationChecks } from './deprecations.ts';
import { efficiencyChecks } from './efficiency.ts';
import { categories, describedIds } from './meta.ts';
import { referenceChecks } from './references.ts';
import { reliabilityPodChecks } from './reliability-pod.ts';
import { reliabilityScalingChecks } from './reliability-scaling.ts';
import { securityConfigChecks } from './security-config.ts';
import { securityPodChecks } from './security-pod.ts';
import { securityRbacChecks } from './security-rbac.ts';
import type { AuditContext, Check, CheckMeta, Finding } from './types.ts';

export { categories };

const categoryOrder = (check: Check) => categories.indexOf(check.meta.category);

/** Every check the audit runs, by category (Security, Reliability, Efficiency), in the order written. */
export const checks: readonly Check[] = [
  ...securityPodChecks,
  ...securityConfigChecks,
  ...securityRbacChecks,
  ...reliabilityPodChecks,
  ...reliabilityScalingChecks,
  ...deprecationChecks,
  ...referenceChecks,
  ...efficiencyChecks,
].sort((a, b) => categoryOrder(a) - categoryOrder(b));

/** Throws when two checks share an id or an alias (or an alias is another check's id): findings name checks by both. */
export function assertUniqueNames(all: readonly Check[]): void {
  const seen = new Map<string, string>();
  for (const { meta } of all)
    for (const name of [meta.id, ...meta.aliases]) {
      const other = seen.get(name);
      if (other !== undefined)
        throw new Error(`audit check name ${name} is used by both ${other} and ${meta.id}`);
      seen.set(name, meta.id);
    }
}
assertUniqueNames(checks);

/** Throws when check-meta.json describes a check that has no code (a removed or renamed check). */
export function assertEveryDescribedCheckExists(all: readonly Check[], described: readonly string[]): void {
  const implemented = new Set(all.map((c) => c.meta.id));
  const stale = described.filter((id) => !implemented.has(id));
  if (stale.length > 0) throw new Error(`check-meta.json describes checks without code: ${stale.join(', ')}`);
}
assertEveryDescribedCheckExists(checks, describedIds);

/** Every check's metadata by id. */
export const checkCatalogue: ReadonlyMap<string, CheckMeta> = new Map(checks.map((c) => [c.meta.id, c.meta]));

const byKind = new Map<string, Check[]>();
for (const check of checks)
  for (const kind of check.meta.appliesTo) byKind.set(kind, [...(byKind.get(kind) ?? []), check]);

/** The checks that read a kind (those for every kind included). */
export const checksFor = (kind: string | undefined): readonly Check[] => [
  ...(byKind.get(kind ?? '') ?? []),
  ...(byKind.get('*') ?? []),
];

/** Every finding on one object. */
export const auditObject = (object: KubeObject, context: AuditContext): Finding[] =>
  checksFor(object.kind).flatMap((check) => check.run(object, context));

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
const code = (items: readonly string[]) => items.map((i) => `\`${i}\``).join(', ');

/** The catalogue as Markdown: one table per category (id, title, default severity, frameworks, Polaris ids). */
export function catalogueMarkdown(): string {
  return categories
    .map((category) => {
      const rows = checks
        .filter((c) => c.meta.category === category)
        .map(({ meta }) => {
          const polaris = meta.aliases
            .filter((a) => a.startsWith('polaris:'))
            .map((a) => a.slice('polaris:'.length));
          return `| \`${meta.id}\` | ${cell(meta.title)} | ${meta.defaultSeverity} | ${cell(meta.frameworks.join('; '))} | ${code(polaris)} |`;
        });
      return [
        `### ${category}`,
        '',
        '| check | title | default severity | frameworks | Polaris |',
        '|---|---|---|---|---|',
        ...rows,
      ].join('\n');
    })
    .join('\n\n');
}
