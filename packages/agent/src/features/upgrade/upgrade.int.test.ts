import { execFile } from 'node:child_process';
import { clusterBinaries, testCluster, waitUntil } from '@binnacle/testkit';
import { CustomObjectsApi } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bindInNamespace,
  deprecatedWidgets,
  plantDeprecatedUses,
  sendFrom,
  servedCrd,
  startTestAgent,
  type TestAgent,
} from '../../testing/index.ts';
import type { Finding } from './findings.ts';
import type { ReadinessReport } from './service.ts';

// Upgrade readiness (docs/upgrade-readiness.md) against the real API server: the built-in removed versions are
// not served here any more, so uses of them are planted where they survive — last-applied copies, a Helm release
// Secret, an Argo CD Application's status — and served versions come from CRDs.
const cluster = testCluster();
const custom = cluster.kubeConfig('admin').makeApiClient(CustomObjectsApi);
const { kubectl } = await clusterBinaries();
let agent: TestAgent;
let proxied: TestAgent;
let ns: { name: string; remove: () => Promise<void> };

/** kubectl apply of a manifest on stdin: kubectl writes its own last-applied copy of it. */
async function kubectlApply(manifest: object): Promise<void> {
  const child = execFile(kubectl, ['--kubeconfig', cluster.kubeconfigPath('admin'), 'apply', '-f', '-']);
  child.stdin?.end(JSON.stringify(manifest));
  await new Promise<void>((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`kubectl apply exited ${code}`)))),
  );
}

let removeCrds: (() => Promise<void>)[] = [];
const group = 'upgrade.binnacle.test';

beforeAll(async () => {
  ns = await cluster.namespace('upgrade');
  await plantDeprecatedUses(ns.name);
  // Applied at autoscaling/v1, which is served and not deprecated: no finding although it differs from v2.
  await kubectlApply({
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'current-hpa', namespace: ns.name },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'shop' }, maxReplicas: 2 },
  });
  // Served versions: a CRD of the test's own group serving a deprecated v1beta1 beside v1, and one in a group
  // the table knows (node.k8s.io/v1beta1, removed in 1.25), which the API server allows a CRD only when marked.
  removeCrds = await Promise.all([
    deprecatedWidgets(group),
    servedCrd(
      'node.k8s.io',
      'legacyruntimeclasses',
      'RuntimeClass',
      [{ name: 'v1beta1', served: true, storage: true }],
      {
        'api-approved.kubernetes.io': 'unapproved, binnacle upgrade readiness test',
      },
    ),
  ]);
  [agent, proxied] = await Promise.all([
    startTestAgent(),
    startTestAgent({ config: { authMode: 'proxy', authProxyAddresses: '127.0.0.2' } }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([agent?.close(), proxied?.close(), ...removeCrds.map((remove) => remove())]);
  await ns?.remove();
});

const mine = (report: ReadinessReport) =>
  report.findings.filter((f) => f.namespace === ns.name || f.release?.namespace === ns.name);
const pick = (f: Finding) => ({
  source: f.source,
  apiVersion: f.apiVersion,
  kind: f.kind,
  name: f.name,
  replacement: f.replacement,
  removedIn: f.removedIn,
  status: f.status,
});

describe('GET /api/upgrade-readiness', () => {
  it('finds last-applied, Helm and GitOps uses of removed APIs, each with its replacement', async () => {
    let report: ReadinessReport | undefined;
    await waitUntil(
      'the planted uses in the report',
      async () => {
        report = await agent.json<ReadinessReport>('/api/upgrade-readiness?target=1.33');
        return mine(report).length >= 5;
      },
      { timeoutMs: 20_000 },
    );
    if (!report) throw new Error('no report');
    expect(report.current).toMatch(/^1\.\d+$/);
    expect(report.target).toBe('1.33');
    const found = mine(report).map(pick);
    // All five were removed before this API server's release (1.36): already removed.
    expect(found).toEqual(
      expect.arrayContaining([
        {
          source: 'object',
          apiVersion: 'policy/v1beta1',
          kind: 'PodDisruptionBudget',
          name: 'shop-pdb',
          replacement: 'policy/v1',
          removedIn: '1.25',
          status: 'already-removed',
        },
        {
          source: 'object',
          apiVersion: 'autoscaling/v2beta2',
          kind: 'HorizontalPodAutoscaler',
          name: 'shop-hpa',
          replacement: 'autoscaling/v2',
          removedIn: '1.26',
          status: 'already-removed',
        },
        {
          source: 'helm',
          apiVersion: 'batch/v1beta1',
          kind: 'CronJob',
          name: 'nightly',
          replacement: 'batch/v1',
          removedIn: '1.25',
          status: 'already-removed',
        },
        {
          source: 'helm',
          apiVersion: 'networking.k8s.io/v1beta1',
          kind: 'Ingress',
          name: 'shop',
          replacement: 'networking.k8s.io/v1',
          removedIn: '1.22',
          status: 'already-removed',
        },
        {
          source: 'gitops',
          apiVersion: 'extensions/v1beta1',
          kind: 'Ingress',
          name: 'legacy',
          replacement: 'networking.k8s.io/v1',
          removedIn: '1.22',
          status: 'already-removed',
        },
      ]),
    );
    expect(found).toHaveLength(5);
    const helm = mine(report).find((f) => f.source === 'helm');
    expect(helm?.release).toEqual({
      namespace: ns.name,
      name: 'legacy-shop',
      revision: 3,
      chart: 'legacy-shop',
    });
    expect(mine(report).find((f) => f.source === 'gitops')?.application).toEqual({
      kind: 'Application',
      namespace: ns.name,
      name: 'legacy-ingress',
    });
    process.stderr.write(
      `[upgrade] current ${report.current}, target ${report.target}: ${report.total} findings ${JSON.stringify(report.summary)}\n`,
    );
  });

  it('names served versions: a CRD’s deprecated version, and a removed built-in version a CRD serves again', async () => {
    let served: Finding[] = [];
    await waitUntil(
      'both CRDs in the report',
      async () => {
        const report = await agent.json<ReadinessReport>('/api/upgrade-readiness');
        served = report.findings.filter((f) => f.source === 'served');
        return served.some((f) => f.apiVersion === 'node.k8s.io/v1beta1');
      },
      { timeoutMs: 20_000 },
    );

    expect(served.map((f) => ({ ...pick(f), note: f.note, resource: f.resource }))).toEqual(
      expect.arrayContaining([
        {
          source: 'served',
          apiVersion: 'upgrade.binnacle.test/v1beta1',
          kind: 'Widget',
          name: 'widgets.upgrade.binnacle.test',
          replacement: 'upgrade.binnacle.test/v1',
          removedIn: undefined,
          status: 'deprecated',
          note: `${group}/v1beta1 Widget is deprecated; use v1`,
          resource: undefined,
        },
        {
          source: 'served',
          apiVersion: 'node.k8s.io/v1beta1',
          kind: 'RuntimeClass',
          name: undefined,
          replacement: 'node.k8s.io/v1',
          removedIn: '1.25',
          status: 'already-removed',
          note: undefined,
          resource: 'legacyruntimeclasses',
        },
      ]),
    );
  });

  it("reads the API server's apiserver_requested_deprecated_apis after a deprecated request", async () => {
    // A request at the deprecated CRD version: the API server counts it in the gauge.
    await custom.listNamespacedCustomObject({
      group: 'upgrade.binnacle.test',
      version: 'v1beta1',
      namespace: ns.name,
      plural: 'widgets',
    });
    const report = await agent.json<ReadinessReport>('/api/upgrade-readiness');
    expect(report.apiServerMetrics.available).toBe(true);
    expect(report.apiServerMetrics.requested).toContainEqual({
      group: 'upgrade.binnacle.test',
      version: 'v1beta1',
      resource: 'widgets',
    });
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        source: 'apiserver-metrics',
        apiVersion: 'upgrade.binnacle.test/v1beta1',
        kind: 'Widget',
        resource: 'widgets',
        replacement: 'upgrade.binnacle.test/v1',
        status: 'deprecated',
      }),
    );
    process.stderr.write(
      `[upgrade] apiserver_requested_deprecated_apis: ${JSON.stringify(report.apiServerMetrics.requested)}\n`,
    );
  });

  it('judges against the target: a version removed after the cluster’s release and by the target', async () => {
    const report = await agent.json<ReadinessReport>('/api/upgrade-readiness?target=1.40&limit=1');
    expect(report.target).toBe('1.40');
    expect(report.findings).toHaveLength(1);
    expect(report.total).toBeGreaterThan(1);
  });

  it('refuses a malformed target with 400 {error, code}', async () => {
    for (const target of ['2.0', '1.x', '1.1234', 'latest']) {
      const res = await agent.request(`/api/upgrade-readiness?target=${target}`);
      expect(res.status, target).toBe(400);
      expect(await res.json()).toMatchObject({
        code: 'invalid_request',
        error: expect.stringContaining('target'),
      });
    }
  });

  it('shows a caller only what its RBAC lets it read, and says when /metrics is forbidden', async () => {
    const group = 'upgrade-viewers';
    const unbind = await bindInNamespace(ns.name, { kind: 'Group', name: group });
    try {
      const { status, body } = await sendFrom(
        proxied,
        '/api/upgrade-readiness?target=1.33',
        { 'x-forwarded-user': 'upgrade-viewer@example.com', 'x-forwarded-groups': group },
        '127.0.0.2',
      );
      expect(status).toBe(200);
      const report = body as unknown as ReadinessReport;
      // `view` may list the PDB and HPA and read the Application, not Secrets (the Helm release) nor /metrics.
      expect(new Set(report.findings.map((f) => f.source))).toEqual(new Set(['object', 'gitops', 'served']));
      expect(report.findings.filter((f) => f.source !== 'served').every((f) => f.namespace === ns.name)).toBe(
        true,
      );
      expect(report.apiServerMetrics).toMatchObject({
        available: false,
        reason: expect.stringContaining('forbidden'),
        requested: [],
      });
    } finally {
      await unbind();
    }
  });
});
