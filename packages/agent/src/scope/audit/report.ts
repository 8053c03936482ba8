import type { KubeObject } from '@binnacle/common';
import { categories, checkCatalogue } from './checks/catalogue.ts';
import type { Category, CheckMeta, Severity } from './checks/types.ts';
import type { ObjectFinding } from './engine.ts';

type Counts = { passing: number; warning: number; danger: number };

/** One object's finding counts: what the dashboard and the topology show beside its health. */
export type FindingCounts = { warning: number; danger: number };

export interface AuditReport {
  summary: Counts & { categories: Record<Category, Counts> };
  findings: ObjectFinding[];
  /** The objects with findings, most dangerous first. */
  groups: {
    kind: string;
    namespace?: string;
    name: string;
    warning: number;
    danger: number;
    findings: ObjectFinding[];
  }[];
  /** Per namespace (cluster-scoped objects under `namespace` absent): what a fleet view compares across clusters. */
  namespaces: (Counts & { namespace?: string })[];
  checks: Record<string, CheckMeta>;
  loading: string[];
}

export const objectKey = (f: { kind: string; namespace?: string; name: string }) =>
  `${f.kind}/${f.namespace ?? ''}/${f.name}`;
const rank: Record<Severity, number> = { danger: 0, warning: 1 };

/**
 * The audit's answer: counts (objects without a finding pass; per category an object passes when that category
 * found nothing on it), findings, the same grouped per object, and the catalogue of the checks that ran.
 */
export function auditReport(
  audited: KubeObject[],
  findings: ObjectFinding[],
  loading: string[],
  disabled: string[],
): AuditReport {
  const zero = (): Counts => ({ passing: 0, warning: 0, danger: 0 });
  const summary = {
    ...zero(),
    categories: Object.fromEntries(categories.map((c) => [c, zero()])) as Record<Category, Counts>,
  };
  const sorted = [...findings].sort(
    (a, b) =>
      rank[a.severity] - rank[b.severity] ||
      objectKey(a).localeCompare(objectKey(b)) ||
      a.checkId.localeCompare(b.checkId),
  );
  const groups = new Map<string, AuditReport['groups'][number]>();
  const namespaces = new Map<string | undefined, Counts>();
  const namespaceCounts = (namespace: string | undefined) => {
    const counts = namespaces.get(namespace) ?? zero();
    namespaces.set(namespace, counts);
    return counts;
  };
  for (const f of sorted) {
    summary[f.severity] += 1;
    summary.categories[f.category][f.severity] += 1;
    namespaceCounts(f.namespace)[f.severity] += 1;
    const key = objectKey(f);
    const group = groups.get(key) ?? {
      kind: f.kind,
      namespace: f.namespace,
      name: f.name,
      warning: 0,
      danger: 0,
      findings: [],
    };
    group[f.severity] += 1;
    group.findings.push(f);
    groups.set(key, group);
  }
  for (const o of audited) {
    const key = objectKey({
      kind: o.kind ?? '',
      namespace: o.metadata?.namespace,
      name: o.metadata?.name ?? '',
    });
    const found = groups.get(key)?.findings ?? [];
    if (found.length === 0) {
      summary.passing += 1;
      namespaceCounts(o.metadata?.namespace).passing += 1;
    }
    for (const category of categories)
      if (!found.some((f) => f.category === category)) summary.categories[category].passing += 1;
  }
  const off = new Set(disabled);
  return {
    summary,
    findings: sorted,
    groups: [...groups.values()].sort((a, b) => b.danger - a.danger || b.warning - a.warning),
    namespaces: [...namespaces]
      .map(([namespace, counts]) => ({ ...(namespace ? { namespace } : {}), ...counts }))
      .sort(
        (a, b) =>
          b.danger - a.danger ||
          b.warning - a.warning ||
          (a.namespace ?? '').localeCompare(b.namespace ?? ''),
      ),
    checks: Object.fromEntries([...checkCatalogue].filter(([id]) => !off.has(id))),
    loading,
  };
}
