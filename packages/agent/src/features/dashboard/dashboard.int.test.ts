import { clusterNodesLock, evictedPods, testCluster, waitUntil } from '@binnacle/testkit';
import { BatchV1Api, CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';

const cluster = testCluster();
let agent: TestAgent;
let ns: { name: string; remove: () => Promise<void> };
// The node counts below hold while no other file adds Nodes.
let unlockNodes: (() => Promise<void>) | undefined;

interface Dashboard {
  cluster: { platform: string; version: string; connected: boolean };
  health: { healthy: number; warning: number; error: number; failingStatuses: string[] };
  problems: { kind: string; namespace: string; name: string; status: string; reason: string }[];
  problemGroups: {
    severity: string;
    source: string;
    reason: string;
    count: number;
    objects: { kind: string; name: string; status: string }[];
  }[];
  counts: Record<string, number | Record<string, number>>;
  recentEvents: ({ type: string; reason: string } | { routine: true; events: { type: string }[] })[];
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
    expect(shop.counts.pods).toEqual({ total: 5, failing: 0, running: 5, pending: 0, succeeded: 0 });
    expect(shop.counts.services).toBe(2);
    expect(shop.counts.ingresses).toBe(1);
    expect(shop.health).toMatchObject({ healthy: 5, warning: 0, error: 0 });
    expect(shop.recentEvents.length).toBeGreaterThan(0);
    // A folded line holds Normal events only: warnings are each shown.
    const all = await agent.json<Dashboard>('/api/dashboard');
    for (const line of all.recentEvents) {
      if ('routine' in line) expect(line.events.every((e) => e.type === 'Normal')).toBe(true);
    }
    const data = await agent.json<Dashboard>('/api/dashboard?namespace=demo-data');
    expect(data.counts.statefulSets).toEqual({ total: 1, ready: 1 });
    expect(data.counts.pvcs).toEqual({ total: 1, bound: 1, pending: 0 });
    const ops = await agent.json<Dashboard>('/api/dashboard?namespace=demo-ops');
    expect(ops.counts.daemonSets).toEqual({ total: 1, ready: 1 });
    // The seeded Job, and any the seeded CronJob started (it runs at 03:00 UTC, inside some runs of the suite).
    const jobs = await cluster
      .kubeConfig()
      .makeApiClient(BatchV1Api)
      .listNamespacedJob({ namespace: 'demo-ops' });
    expect(ops.counts.jobs).toMatchObject({ total: jobs.items.length, succeeded: expect.any(Number) });
    expect((ops.counts.jobs as Record<string, number>).succeeded).toBeGreaterThanOrEqual(1);
    expect(ops.counts.cronJobs).toEqual({ total: 1, suspended: 0 });
  });

  it('counts evicted pods as failing alike in the health, the pod counts and one problem group', async () => {
    const core = cluster.kubeConfig().makeApiClient(CoreV1Api);
    const names = ['evicted-0', 'evicted-1', 'evicted-2'];
    await evictedPods(core, ns.name, names);
    const scoped = `/api/dashboard?namespace=${ns.name}`;
    await waitUntil(
      'the evicted pods on the dashboard',
      async () => (await agent.json<Dashboard>(scoped)).health.error === 3,
      {
        timeoutMs: 10_000,
      },
    );
    const dashboard = await agent.json<Dashboard>(scoped);
    expect(dashboard.health).toMatchObject({
      healthy: 0,
      warning: 0,
      error: 3,
      failingStatuses: ['Evicted'],
    });
    expect(dashboard.counts.pods).toEqual({ total: 3, failing: 3, running: 0, pending: 0, succeeded: 0 });
    const evicted = dashboard.problemGroups.filter((g) => g.reason === 'Evicted');
    expect(evicted).toEqual([
      {
        severity: 'critical',
        source: 'health',
        reason: 'Evicted',
        kinds: ['Pod'],
        count: 3,
        objects: expect.arrayContaining([
          expect.objectContaining({ kind: 'Pod', name: 'evicted-0', status: 'Evicted' }),
        ]),
      },
    ]);
    expect(dashboard.problemGroups[0]?.severity).toBe('critical');
    // The flat list the fleet view merges still names each pod.
    expect(
      dashboard.problems
        .filter((p) => p.reason === 'Evicted')
        .map((p) => p.name)
        .sort(),
    ).toEqual(names);
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
