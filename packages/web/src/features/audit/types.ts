import type { Answer } from '../../api/client.ts';
import type { Tone } from '../../ui/Badge.tsx';

/** The agent's best-practice audit (`GET /api/audit`), as docs/audit.md describes it. */
export type AuditReport = Answer<'/api/audit'>;
export type Finding = AuditReport['findings'][number];
export type ObjectGroup = AuditReport['groups'][number];
export type CheckMeta = AuditReport['checks'][string];
export type Category = Finding['category'];
export type Severity = Finding['severity'];

/** The audit page's URL: the agent's filters, the text filter and how findings are grouped. */
export const auditViews = ['objects', 'checks'] as const;
export type AuditView = (typeof auditViews)[number];
export interface AuditSearch {
  category?: Category;
  severity?: Severity;
  view?: AuditView;
  q?: string;
}

export const categories: readonly Category[] = ['Security', 'Reliability', 'Efficiency'];
export const severities: readonly Severity[] = ['danger', 'warning'];
export const severityTone: Record<Severity, Tone> = { danger: 'bad', warning: 'warn' };
export const severityWord: Record<Severity, string> = { danger: 'Danger', warning: 'Warning' };

export const objectKey = (o: { kind: string; namespace?: string; name: string }) =>
  `${o.kind}/${o.namespace ?? ''}/${o.name}`;

/** `Deployment demo-shop/checkout`, `ClusterRoleBinding admin-all`. */
export const objectText = (o: { kind: string; namespace?: string; name: string }) =>
  `${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name}`;

/** A framework reference as a short tag and the whole citation (the tag's tooltip). */
export interface FrameworkRef {
  tag: string;
  topic: string;
  full: string;
}

/**
 * `CIS Kubernetes Benchmark v1.9 5.2.7 (root containers)` → CIS 5.2.7, root containers;
 * `NSA/CISA Kubernetes Hardening Guide v1.2: Kubernetes Pod security, non-root containers` → NSA/CISA, its section.
 */
export function frameworkRef(full: string): FrameworkRef {
  const cis = /^CIS .*? (\d+(?:\.\d+)+) \((.+)\)$/.exec(full);
  if (cis) return { tag: `CIS ${cis[1]}`, topic: cis[2] ?? '', full };
  const nsa = /^NSA\/CISA[^:]*: (.+)$/.exec(full);
  if (nsa) return { tag: 'NSA/CISA', topic: nsa[1] ?? '', full };
  return { tag: full, topic: '', full };
}

/** Other tools' names for a check: `polaris:runAsRootAllowed` → `Polaris runAsRootAllowed`. */
export const aliasText = (alias: string) => alias.replace(/^polaris:/, 'Polaris ');

/** The findings of one check across objects: what the "By check" view lists. */
export interface CheckGroup {
  checkId: string;
  check?: CheckMeta;
  category: Category;
  /** The worst severity it found. */
  severity: Severity;
  objects: number;
  findings: Finding[];
}

/** Findings per check, most dangerous first, then the most widespread. */
export function groupByCheck(findings: Finding[], checks: AuditReport['checks']): CheckGroup[] {
  const groups = new Map<string, CheckGroup>();
  for (const f of findings) {
    const group = groups.get(f.checkId) ?? {
      checkId: f.checkId,
      check: checks[f.checkId],
      category: f.category,
      severity: f.severity,
      objects: 0,
      findings: [],
    };
    if (f.severity === 'danger') group.severity = 'danger';
    group.findings.push(f);
    groups.set(f.checkId, group);
  }
  for (const group of groups.values()) group.objects = new Set(group.findings.map(objectKey)).size;
  const rank = (g: CheckGroup) => (g.severity === 'danger' ? 0 : 1);
  return [...groups.values()].sort(
    (a, b) => rank(a) - rank(b) || b.objects - a.objects || a.checkId.localeCompare(b.checkId),
  );
}

/** Whether a finding's object or check contains the filter text (any case). */
export function findingMatches(f: Finding, checks: AuditReport['checks'], q?: string): boolean {
  if (!q) return true;
  const needle = q.toLowerCase();
  return [objectText(f), f.checkId, checks[f.checkId]?.title ?? ''].some((text) =>
    text.toLowerCase().includes(needle),
  );
}
