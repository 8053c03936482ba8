import { describe, expect, it } from 'vitest';
import { groupProblems, severityOf } from './groups.ts';
import type { Problem } from './problems.ts';

const problem = (over: Partial<Problem>): Problem => ({
  kind: 'Pod',
  namespace: 'shop',
  name: 'web-1',
  status: 'CrashLoopBackOff',
  reason: 'CrashLoopBackOff',
  message: 'back-off restarting',
  ageSeconds: 60,
  source: 'health',
  ...over,
});

const finding = (kind: string, name: string, ageSeconds = 10) =>
  problem({
    kind,
    name,
    status: 'danger',
    reason: 'Privileged container',
    check: 'privileged',
    source: 'audit',
    message: `${name} is privileged`,
    ageSeconds,
  });

describe('groupProblems', () => {
  it('gives one row per audit check across objects and kinds, with the count and the oldest objects first', () => {
    const problems = [
      finding('Deployment', 'a', 5),
      finding('DaemonSet', 'b', 50),
      finding('Deployment', 'c', 20),
      problem({ source: 'audit', check: 'hostPID', reason: 'Host PID', status: 'danger', name: 'd' }),
    ];
    const groups = groupProblems(problems, 2);
    expect(groups).toHaveLength(2);
    expect(groups[0]).toEqual({
      severity: 'warning',
      source: 'audit',
      reason: 'Privileged container',
      check: 'privileged',
      kinds: ['Deployment', 'DaemonSet'],
      count: 3,
      objects: [
        {
          kind: 'DaemonSet',
          namespace: 'shop',
          name: 'b',
          status: 'danger',
          message: 'b is privileged',
          ageSeconds: 50,
        },
        {
          kind: 'Deployment',
          namespace: 'shop',
          name: 'c',
          status: 'danger',
          message: 'c is privileged',
          ageSeconds: 20,
        },
      ],
    });
    expect(groups[1]).toMatchObject({ reason: 'Host PID', count: 1 });
  });

  it('names the oldest objects of a large group, equals in the order met', () => {
    const ages = [3, 9, 1, 9, 7, 2, 9, 5];
    const problems = ages.map((age, i) => finding('Pod', `p${i}`, age));
    const [group] = groupProblems(problems, 4);
    expect(group?.count).toBe(8);
    expect(group?.objects.map((o) => `${o.name}:${o.ageSeconds}`)).toEqual(['p1:9', 'p3:9', 'p6:9', 'p4:7']);
  });

  it('orders critical before warning, runtime health before certificates and the audit, then the most objects', () => {
    const groups = groupProblems(
      [
        finding('Deployment', 'x'),
        finding('Deployment', 'y'),
        problem({
          kind: 'Secret',
          name: 'tls',
          source: 'certificate',
          status: 'expired',
          reason: 'CertificateExpired',
        }),
        problem({ name: 'p1', status: 'Pending', reason: 'Unschedulable' }),
        problem({ name: 'e1', status: 'Error', reason: 'Error' }),
        problem({ name: 'c1' }),
        problem({ name: 'c2' }),
      ],
      10,
    );
    expect(groups.map((g) => `${g.severity} ${g.reason} ${g.count}`)).toEqual([
      'critical CrashLoopBackOff 2',
      'critical Error 1',
      'critical CertificateExpired 1',
      'warning Unschedulable 1',
      'warning Privileged container 2',
    ]);
  });

  it('sums its failing pods to what the health counts as failing: every critical pod group', () => {
    const groups = groupProblems([problem({ name: 'a' }), problem({ name: 'b', reason: 'Error' })], 10);
    expect(groups.filter((g) => g.severity === 'critical').reduce((sum, g) => sum + g.count, 0)).toBe(2);
  });
});

describe('severityOf', () => {
  it.each<[Partial<Problem>, string]>([
    [{ source: 'health', status: 'CrashLoopBackOff' }, 'critical'],
    [{ source: 'health', status: 'Pending' }, 'warning'],
    [{ source: 'certificate', status: 'expired' }, 'critical'],
    [{ source: 'certificate', status: 'critical' }, 'warning'],
    [{ source: 'audit', status: 'danger' }, 'warning'],
  ])('%o is %s', (over, severity) => {
    expect(severityOf(problem(over))).toBe(severity);
  });
});
