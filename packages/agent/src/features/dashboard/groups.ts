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
  const groups = new Map<string, { group: ProblemGroup; oldest: Problem[] }>();
  for (const problem of problems) {
    const severity = severityOf(problem);
    const key = `${problem.source}\0${problem.check ?? problem.reason}\0${severity}`;
    let found = groups.get(key);
    if (!found) {
      found = {
        group: {
          severity,
          source: problem.source,
          reason: problem.reason,
          ...(problem.check ? { check: problem.check } : {}),
          kinds: [],
          count: 0,
          objects: [],
        },
        oldest: [],
      };
      groups.set(key, found);
    }
    found.group.count += 1;
    if (!found.group.kinds.includes(problem.kind)) found.group.kinds.push(problem.kind);
    keepOldest(found.oldest, problem, shown);
  }
  return [...groups.values()]
    .map(({ group, oldest }) => ({
      ...group,
      objects: oldest.map(({ kind, namespace, name, status, message, ageSeconds }) => ({
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

/**
 * Keeps `oldest` the first `shown` problems by age, oldest first and in the order met among equals (what a stable
 * sort of them all would give), without sorting a group of 50 000 pods' findings to show ten.
 */
function keepOldest(oldest: Problem[], problem: Problem, shown: number): void {
  let at = oldest.length;
  while (at > 0 && (oldest[at - 1] as Problem).ageSeconds < problem.ageSeconds) at -= 1;
  if (at >= shown) return;
  oldest.splice(at, 0, problem);
  if (oldest.length > shown) oldest.pop();
}
