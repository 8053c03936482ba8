import type { Problem } from './problems.ts';

export type Severity = 'critical' | 'warning';

/**
 * How bad a problem is: `critical` when something is broken now (a failing pod or workload, a node not ready, a
 * certificate expired or unreadable), `warning` when it will be or is at risk (a certificate expiring within 7
 * days, a danger finding of the audit).
 */
export function severityOf(problem: Problem): Severity {
  if (problem.source === 'health') return problem.status === 'Pending' ? 'warning' : 'critical';
  if (problem.source === 'certificate') return problem.status === 'critical' ? 'warning' : 'critical';
  return 'warning';
}

/** One object a group names, with what is wrong with that one. */
export type GroupedObject = Pick<
  Problem,
  'kind' | 'namespace' | 'name' | 'status' | 'message' | 'ageSeconds'
>;

/** One finding across the objects that have it: a crash loop in 40 pods is one row saying 40. */
export interface ProblemGroup {
  severity: Severity;
  source: Problem['source'];
  reason: string;
  /** The audit check (audit groups only): the audit page filters by it. */
  check?: string;
  /** The kinds of the objects, each once, in the order met. */
  kinds: string[];
  count: number;
  /** The first objects (oldest first), at most the cut asked for. */
  objects: GroupedObject[];
}

const sourceOrder: Record<Problem['source'], number> = { health: 0, certificate: 1, audit: 2 };

/**
 * The problems grouped by what found them and why (the check of an audit finding, the status of a pod), critical
 * before warning, then runtime health, certificates, the audit, then the most objects first.
 */
export function groupProblems(problems: Problem[], shown: number): ProblemGroup[] {
  const groups = new Map<string, { group: ProblemGroup; all: Problem[] }>();
  for (const problem of problems) {
    const severity = severityOf(problem);
    const key = JSON.stringify([problem.source, problem.check ?? problem.reason, severity]);
    const found = groups.get(key);
    if (found) {
      found.all.push(problem);
      if (!found.group.kinds.includes(problem.kind)) found.group.kinds.push(problem.kind);
      continue;
    }
    const group: ProblemGroup = {
      severity,
      source: problem.source,
      reason: problem.reason,
      ...(problem.check ? { check: problem.check } : {}),
      kinds: [problem.kind],
      count: 0,
      objects: [],
    };
    groups.set(key, { group, all: [problem] });
  }
  return [...groups.values()]
    .map(({ group, all }) => ({
      ...group,
      count: all.length,
      objects: [...all]
        .sort((a, b) => b.ageSeconds - a.ageSeconds)
        .slice(0, shown)
        .map(({ kind, namespace, name, status, message, ageSeconds }) => ({
          kind,
          ...(namespace === undefined ? {} : { namespace }),
          name,
          status,
          message,
          ageSeconds,
        })),
    }))
    .sort(
      (a, b) =>
        Number(a.severity === 'warning') - Number(b.severity === 'warning') ||
        sourceOrder[a.source] - sourceOrder[b.source] ||
        b.count - a.count ||
        a.reason.localeCompare(b.reason),
    );
}
