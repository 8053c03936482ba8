import { identities, testCluster, waitUntil } from '@binnacle/testkit';
import { AppsV1Api, CoreV1Api } from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { agentsAndNamespace } from '../../testing/index.ts';

// A manifest set with known violations, applied to the local control plane: one risky Deployment and a
// ConfigMap holding a password, the exact findings asserted.
const cluster = testCluster();
const kc = cluster.kubeConfig('admin');
const fixture = agentsAndNamespace('audit');

interface Report {
  summary: { passing: number; warning: number; danger: number };
  findings: {
    kind: string;
    namespace?: string;
    name: string;
    checkId: string;
    severity: string;
    container?: string;
  }[];
  checks: Record<string, { title: string; remediation: string }>;
}

const risky = {
  metadata: { name: 'risky' },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: 'risky' } },
    template: {
      metadata: { labels: { app: 'risky' } },
      spec: {
        hostNetwork: true,
        containers: [{ name: 'app', image: 'nginx:latest', securityContext: { privileged: true } }],
      },
    },
  },
};

beforeAll(async () => {
  const ns = fixture.ns.name;
  await kc.makeApiClient(AppsV1Api).createNamespacedDeployment({ namespace: ns, body: risky });
  await kc.makeApiClient(CoreV1Api).createNamespacedConfigMap({
    namespace: ns,
    body: { metadata: { name: 'settings' }, data: { DB_PASSWORD: 'hunter2', LOG_LEVEL: 'info' } },
  });
});

const audit = (query = '') => fixture.agent.json<Report>(`/api/audit?namespace=${fixture.ns.name}${query}`);
const ofObject = (report: Report, kind: string, name: string) =>
  report.findings
    .filter((f) => f.kind === kind && f.name === name)
    .map((f) => `${f.checkId}:${f.severity}${f.container ? `:${f.container}` : ''}`)
    .sort();

describe('GET /api/audit', () => {
  it('finds exactly the known violations of the applied manifests', async () => {
    let report: Report | undefined;
    await waitUntil(
      'the Deployment and the ConfigMap in the audit',
      async () => {
        report = await audit();
        return (
          ofObject(report, 'Deployment', 'risky').length > 0 &&
          ofObject(report, 'ConfigMap', 'settings').length > 0
        );
      },
      { timeoutMs: 15_000, intervalMs: 250 },
    );
    if (!report) throw new Error('no report');
    expect(ofObject(report, 'Deployment', 'risky')).toEqual([
      'automountServiceAccountToken:warning',
      'cpuLimitMissing:warning:app',
      'cpuRequestMissing:warning:app',
      'hostNetwork:warning',
      'imageTagLatest:danger:app',
      'linuxHardening:warning:app',
      'livenessProbeMissing:warning:app',
      'memoryLimitMissing:warning:app',
      'memoryRequestMissing:warning:app',
      'metadataAndInstanceMismatched:warning',
      'missingPDB:warning',
      'missingTopologySpread:warning',
      'priorityClassNotSet:warning',
      'privilegeEscalation:danger:app',
      'privileged:danger:app',
      'readOnlyRootFs:warning:app',
      'readinessProbeMissing:warning:app',
      'runAsRoot:warning:app',
      'singleReplica:warning',
    ]);
    // The Deployment's pods are judged through it, not again one by one.
    expect(report.findings.filter((f) => f.kind === 'Pod' || f.kind === 'ReplicaSet')).toEqual([]);
    expect(ofObject(report, 'ConfigMap', 'settings')).toEqual([
      'orphanConfigMapSecret:warning',
      'secretInConfigMap:warning',
    ]);
    expect(report.checks.privileged?.remediation).toBeTruthy();
  });
});

describe('settings and scope', () => {
  it('applies disabled checks and severity overrides, and raw ignores them', async () => {
    const put = await fixture.agent.request('/api/settings/audit', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        ignoredNamespaces: [],
        disabledChecks: ['metadataAndInstanceMismatched'],
        severityOverrides: { hostNetwork: 'danger' },
      }),
    });
    expect(put.status).toBe(200);
    try {
      const report = await audit();
      expect(ofObject(report, 'Deployment', 'risky')).toContain('hostNetwork:danger');
      expect(ofObject(report, 'Deployment', 'risky')).not.toContain('metadataAndInstanceMismatched:warning');
      expect(report.checks.metadataAndInstanceMismatched).toBeUndefined();
      const raw = await audit('&raw=true');
      expect(ofObject(raw, 'Deployment', 'risky')).toContain('hostNetwork:warning');
      expect(ofObject(raw, 'Deployment', 'risky')).toContain('metadataAndInstanceMismatched:warning');
    } finally {
      await fixture.agent.request('/api/settings/audit', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ignoredNamespaces: [], disabledChecks: [] }),
      });
    }
  });

  it("answers one object's findings, 404 for a missing one, 403 for the restricted identity", async () => {
    const one = await fixture.agent.json<{ findings: { checkId: string }[] }>(
      `/api/audit/resource/Deployment/${fixture.ns.name}/risky`,
    );
    expect(one.findings.map((f) => f.checkId)).toContain('privileged');
    expect(
      (await fixture.agent.request(`/api/audit/resource/Deployment/${fixture.ns.name}/nowhere`)).status,
    ).toBe(404);
    const refused = await fixture.restricted.request(`/api/audit?namespace=${fixture.ns.name}`);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toContain(identities.restricted.user);
  });
});
