import { clusterNodesLock, testCluster, waitUntil } from '@binnacle/testkit';
import { CoreV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';

const cluster = testCluster();
let agent: TestAgent;
let ns: { name: string; remove: () => Promise<void> };
// The node counts below hold while no other file adds Nodes.
let unlockNodes: (() => Promise<void>) | undefined;

interface Dashboard {
  cluster: { platform: string; version: string; connected: boolean };
  health: { healthy: number; warning: number; error: number };
  problems: { kind: string; namespace: string; name: string; status: string; reason: string }[];
  counts: Record<string, number | Record<string, number>>;
  recentEvents: { reason: string; involvedObject: { kind?: string } }[];
  loading: string[];
}

beforeAll(async () => {
  unlockNodes = await cluster.lock(clusterNodesLock);
  [agent, ns] = await Promise.all([startTestAgent(), cluster.namespace('dashboard')]);
});
afterAll(async () => {
  await Promise.all([agent?.close(), ns?.remove()]);
  await unlockNodes?.();
});

describe('GET /api/dashboard', () => {
  it('counts the seeded cluster and shows recent events', async () => {
    // Other test files add workloads to the same cluster concurrently: count in the seeded namespaces.
    const shop = await agent.json<Dashboard>('/api/dashboard?namespace=demo-shop');
    expect(shop.cluster).toMatchObject({ platform: 'kwok', version: 'v1.36.3', connected: true });
    expect(shop.loading).toEqual([]);
    expect(shop.counts.nodes).toEqual({ total: 3, ready: 3, notReady: 0 });
    expect(shop.counts.deployments).toEqual({ total: 2, available: 2, unavailable: 0 });
    expect(shop.counts.pods).toEqual({ total: 5, running: 5, pending: 0, failed: 0, succeeded: 0 });
    expect(shop.counts.services).toBe(2);
    expect(shop.counts.ingresses).toBe(1);
    expect(shop.health).toMatchObject({ healthy: 5, warning: 0, error: 0 });
    expect(shop.recentEvents.length).toBeGreaterThan(0);
    const data = await agent.json<Dashboard>('/api/dashboard?namespace=demo-data');
    expect(data.counts.statefulSets).toEqual({ total: 1, ready: 1 });
    expect(data.counts.pvcs).toEqual({ total: 1, bound: 1, pending: 0 });
    const ops = await agent.json<Dashboard>('/api/dashboard?namespace=demo-ops');
    expect(ops.counts.daemonSets).toEqual({ total: 1, ready: 1 });
    expect(ops.counts.jobs).toMatchObject({ total: 1, succeeded: 1 });
    expect(ops.counts.cronJobs).toEqual({ total: 1, suspended: 0 });
  });

  it('lists a failed pod as a problem as soon as it fails', async () => {
    const core = cluster.kubeConfig().makeApiClient(CoreV1Api);
    await core.createNamespacedPod({
      namespace: ns.name,
      body: {
        metadata: { name: 'crasher' },
        spec: { containers: [{ name: 'main', image: 'busybox:1.37' }] },
      },
    });
    await waitUntil(
      'crasher Running',
      async () =>
        (await core.readNamespacedPod({ namespace: ns.name, name: 'crasher' })).status?.phase === 'Running',
      { timeoutMs: 30_000 },
    );
    await core.patchNamespacedPodStatus(
      {
        namespace: ns.name,
        name: 'crasher',
        body: { status: { phase: 'Failed', reason: 'Evicted', message: 'The node was low on memory.' } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await waitUntil(
      'the failed pod on the dashboard',
      async () => (await agent.json<Dashboard>('/api/dashboard')).problems.some((p) => p.name === 'crasher'),
      { timeoutMs: 10_000 },
    );
    const problem = (await agent.json<Dashboard>('/api/dashboard')).problems.find(
      (p) => p.name === 'crasher',
    );
    expect(problem).toMatchObject({ kind: 'Pod', namespace: ns.name, status: 'Failed', reason: 'Evicted' });
  });

  it('GET /api/dashboard/crds counts custom resources, most used first', async () => {
    const crds = await agent.json<{
      items: { kind: string; group: string; count: number }[];
      loading: boolean;
    }>('/api/dashboard/crds');
    expect(crds.loading).toBe(false);
    // Other files create GitOps objects of their own meanwhile: the order is checked, not who leads it.
    const counts = crds.items.map((c) => c.count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const applications = crds.items.find((c) => c.kind === 'Application');
    expect(applications?.group).toBe('argoproj.io');
    expect(applications?.count).toBeGreaterThanOrEqual(2);
    expect(crds.items.map((c) => c.kind)).toEqual(
      expect.arrayContaining(['Kustomization', 'HelmRelease', 'GitRepository', 'HelmRepository']),
    );
  });

  it('GET /api/dashboard/pkgmgr decodes the Helm release from its Secrets', async () => {
    // Other files install releases of their own meanwhile: only the seeded namespace is this test's.
    const answer = await agent.json<{ releases: { namespace: string }[]; unreadable: unknown[] }>(
      '/api/dashboard/pkgmgr',
    );
    expect(answer.unreadable).toEqual([]);
    expect(answer.releases.filter((r) => r.namespace === 'demo-billing')).toEqual([
      {
        name: 'billing',
        namespace: 'demo-billing',
        revision: 2,
        status: 'deployed',
        chart: 'billing',
        chartVersion: '1.2.0',
        appVersion: '3.1.0',
        updated: expect.any(String),
        description: 'Upgrade complete',
      },
    ]);
  });
});
