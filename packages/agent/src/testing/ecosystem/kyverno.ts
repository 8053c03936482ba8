import { condition, metadata, type StateFixture } from './fixture.ts';

/**
 * Kyverno objects in each state, as Kyverno 1.19.1 writes them: a policy's Ready (`Succeeded` / `Failed`,
 * api/kyverno/v1/policy_status.go: PolicyStatus.SetReady, messages "Ready" and "Not Ready" from
 * pkg/controllers/webhook/controller.go), and PolicyReports per resource with
 * `scope`, `summary` and `results` (api/policyreport/v1alpha2/common.go) as its reports controller wrote them on
 * the test control plane for a background scan (ADR 0127: run against it, not kept in the full profile). Kyverno
 * names a report after its resource's uid and makes the resource its owner; these keep readable names.
 */
const policySpec = {
  background: true,
  rules: [
    {
      name: 'check-team',
      match: { any: [{ resources: { kinds: ['Pod'] } }] },
      validate: {
        failureAction: 'Audit',
        message: 'label `team` is required',
        pattern: { metadata: { labels: { team: '?*' } } },
      },
    },
  ],
};
const seconds = () => Math.floor(Date.now() / 1000);

export function kyvernoStates(namespace: string, prefix: string): StateFixture[] {
  const report = (name: string, pod: string, result: 'pass' | 'fail' | 'warn') => ({
    apiVersion: 'wgpolicyk8s.io/v1alpha2',
    kind: 'PolicyReport',
    metadata: { ...metadata(name, namespace), labels: { 'app.kubernetes.io/managed-by': 'kyverno' } },
    scope: {
      apiVersion: 'v1',
      kind: 'Pod',
      name: pod,
      namespace,
      uid: '00000000-0000-4000-8000-000000000001',
    },
    summary: {
      pass: result === 'pass' ? 1 : 0,
      fail: result === 'fail' ? 1 : 0,
      warn: result === 'warn' ? 1 : 0,
      error: 0,
      skip: 0,
    },
    results: [
      {
        policy: `${prefix}-require-team`,
        rule: 'check-team',
        result,
        message:
          result === 'pass'
            ? "validation rule 'check-team' passed."
            : 'validation error: label `team` is required. rule check-team failed at path /metadata/labels/team/',
        properties: { process: 'background scan' },
        source: 'kyverno',
        scored: true,
        timestamp: { seconds: seconds(), nanos: 0 },
      },
    ],
  });
  return [
    {
      state: 'healthy',
      object: {
        apiVersion: 'kyverno.io/v1',
        kind: 'ClusterPolicy',
        metadata: metadata(`${prefix}-require-team`),
        spec: policySpec,
        status: { conditions: [condition('Ready', 'True', 'Succeeded', 'Ready')] },
      },
      expected: { health: 'healthy', from: 'Ready', reason: 'Succeeded' },
    },
    {
      state: 'failed',
      object: {
        apiVersion: 'kyverno.io/v1',
        kind: 'Policy',
        metadata: metadata(`${prefix}-policy-broken`, namespace),
        spec: policySpec,
        status: {
          conditions: [
            // Its one writer (pkg/controllers/webhook/controller.go) says only this: the policy is not in the
            // webhook configuration it registered yet.
            condition('Ready', 'False', 'Failed', 'Not Ready'),
          ],
        },
      },
      expected: { health: 'unhealthy', from: 'Ready', reason: 'Failed' },
    },
    {
      state: 'failed',
      object: report(`${prefix}-report-web`, 'web', 'fail'),
      expected: { health: 'unhealthy', from: 'summary', reason: 'PolicyViolations' },
    },
    {
      state: 'progressing',
      object: report(`${prefix}-report-api`, 'api', 'warn'),
      expected: { health: 'degraded', from: 'summary', reason: 'PolicyWarnings' },
    },
    {
      state: 'healthy',
      object: report(`${prefix}-report-db`, 'db', 'pass'),
      expected: { health: 'healthy', from: 'summary', reason: 'Pass' },
    },
  ];
}
