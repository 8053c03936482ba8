import { identities, testCluster, waitUntil } from '@binnacle/testkit';
import { AppsV1Api, CoreV1Api, NetworkingV1Api, type V1Secret } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CertFactory, certFactory, tlsSecret } from '../../testing/certs.ts';
import { agentsAndNamespace } from '../../testing/index.ts';
import type { Problem } from '../dashboard/problems.ts';

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

describe('findings on the dashboard and the topology', () => {
  let factory: CertFactory;
  beforeAll(async () => {
    factory = certFactory();
    // Half a day past the third day, so the days left read -3 however long the test takes.
    const expired = factory.make({ cn: 'front.audit.example', valid: [-60, -2.5] });
    const ns = fixture.ns.name;
    await kc.makeApiClient(CoreV1Api).createNamespacedSecret({
      namespace: ns,
      body: tlsSecret('expired-tls', { crt: expired.cert, key: expired.key }, ns) as V1Secret,
    });
    await kc.makeApiClient(NetworkingV1Api).createNamespacedIngress({
      namespace: ns,
      body: {
        metadata: { name: 'front' },
        spec: {
          tls: [{ hosts: ['front.audit.example'], secretName: 'expired-tls' }],
          rules: [
            {
              host: 'front.audit.example',
              http: {
                paths: [
                  {
                    path: '/',
                    pathType: 'Prefix',
                    backend: { service: { name: 'risky', port: { number: 80 } } },
                  },
                ],
              },
            },
          ],
        },
      },
    });
  });
  afterAll(() => factory.dispose());

  interface Dashboard {
    problems: Problem[];
    problemGroups: { source: string; check?: string; count: number; objects: { name: string }[] }[];
    certificates?: Record<string, number>;
    audit?: { passing: number; warning: number; danger: number };
  }

  it('lists the expired certificate and the danger findings among the problems, and counts both', async () => {
    const ns = fixture.ns.name;
    let dashboard: Dashboard | undefined;
    await waitUntil(
      'the certificate and the Deployment among the problems',
      async () => {
        dashboard = await fixture.agent.json<Dashboard>(`/api/dashboard?namespace=${ns}`);
        return (
          dashboard.problems.some((p) => p.source === 'certificate') &&
          dashboard.problems.some((p) => p.source === 'audit')
        );
      },
      { timeoutMs: 15_000, intervalMs: 250 },
    );
    if (!dashboard) throw new Error('no dashboard');
    expect(dashboard.problems.filter((p) => p.source === 'certificate')).toEqual([
      expect.objectContaining({
        kind: 'Secret',
        namespace: ns,
        name: 'expired-tls',
        status: 'expired',
        reason: 'CertificateExpired',
        message: expect.stringMatching(
          /^the certificate for front\.audit\.example expired 3 days ago \(not after /,
        ),
      }),
    ]);
    // privileged, privilegeEscalation and imageTagLatest are the Deployment's dangers; nothing else is dangerous.
    const audit = dashboard.problems.filter((p) => p.source === 'audit');
    expect(audit.map((p) => p.check).sort()).toEqual(['imageTagLatest', 'privilegeEscalation', 'privileged']);
    for (const problem of audit) {
      expect(problem).toMatchObject({ kind: 'Deployment', namespace: ns, name: 'risky', status: 'danger' });
    }
    // Grouped, each check is one row naming the Deployment.
    expect(
      dashboard.problemGroups
        .filter((g) => g.source === 'audit')
        .map((g) => [g.check, g.count, g.objects[0]?.name]),
    ).toEqual(expect.arrayContaining([['privileged', 1, 'risky']]));
    expect(dashboard.certificates).toEqual({
      total: 1,
      ok: 0,
      warning: 0,
      critical: 0,
      expired: 1,
      invalid: 0,
    });
    const report = await fixture.agent.json<Report & { namespaces: unknown[] }>(`/api/audit?namespace=${ns}`);
    const { passing, warning, danger } = report.summary;
    expect(dashboard.audit).toEqual({ passing, warning, danger });
    expect(report.namespaces).toEqual([{ namespace: ns, passing, warning, danger }]);
  });

  it("makes the Ingress unhealthy by its expired certificate and counts each object's findings on its node", async () => {
    const ns = fixture.ns.name;
    const report = await fixture.agent.json<Report>(`/api/audit?namespace=${ns}`);
    const risky = report.findings.filter((f) => f.kind === 'Deployment' && f.name === 'risky');
    const topology = await fixture.agent.json<{
      nodes: { id: string; status: string; data: Record<string, unknown> }[];
    }>(`/api/topology?namespaces=${ns}`);
    const node = (id: string) => topology.nodes.find((n) => n.id === id);
    expect(node(`ingress/${ns}/front`)).toMatchObject({
      status: 'unhealthy',
      data: { certificate: { secret: `${ns}/expired-tls`, severity: 'expired', daysLeft: -3 } },
    });
    expect(node(`deployment/${ns}/risky`)?.data.audit).toEqual({
      warning: risky.filter((f) => f.severity === 'warning').length,
      danger: 3,
    });
  });
});
