import {
  clusterInventory,
  generateMetrics,
  type MetricsStoreServer,
  metricsStoreServiceLock,
  startPrometheus,
  testCluster,
} from '@binnacle/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindInNamespace, sendFrom, startTestAgent, type TestAgent } from '../../testing/index.ts';

/**
 * Who sees which cost, what happens without OpenCost or without a store, and bad input. The store here holds
 * cAdvisor and kube-state-metrics series for an hour but none of OpenCost's.
 */
let withCost: MetricsStoreServer;
let withoutCost: MetricsStoreServer;
let agent: TestAgent;
let noOpenCost: TestAgent;
let noStore: TestAgent;
const opencost = /^(node_.*_hourly_cost|pv_hourly_cost|container_(cpu|memory)_allocation.*|kubecost_.*)$/;
const log = (line: string) => process.stderr.write(`[cost] ${line}\n`);

beforeAll(async () => {
  const metrics = generateMetrics(await clusterInventory(testCluster().kubeConfig()), { seed: 5, hours: 1 });
  const series = metrics.series.filter((s) => !opencost.test(s.name));
  [withCost, withoutCost] = await Promise.all([
    startPrometheus(metrics, { log }),
    startPrometheus({ ...metrics, series }, { log }),
  ]);
  [agent, noOpenCost, noStore] = await Promise.all([
    startTestAgent({
      config: { metricsdbUrl: withCost.url, authMode: 'proxy', authProxyAddresses: '127.0.0.2' },
    }),
    startTestAgent({ config: { metricsdbUrl: withoutCost.url } }),
    startTestAgent(),
  ]);
}, 300_000);

afterAll(async () => {
  await Promise.all([
    agent?.close(),
    noOpenCost?.close(),
    noStore?.close(),
    withCost?.stop(),
    withoutCost?.stop(),
  ]);
});

/** A request from 127.0.0.2, the trusted proxy of `--auth-mode proxy`, acting for a user in a group. */
const asUser = (path: string, group: string) =>
  sendFrom(
    agent,
    path,
    { 'x-forwarded-user': 'cost-reader@example.com', 'x-forwarded-groups': group },
    '127.0.0.2',
  );

describe('cost for a caller who may see one namespace', () => {
  it('covers only its namespace, hides cluster-wide figures, and refuses what it may not see', async () => {
    const group = 'cost-team';
    const unbind = await bindInNamespace('demo-shop', { kind: 'Group', name: group });
    try {
      const summary = await asUser('/api/cost/summary?window=1h', group);
      expect(summary.status).toBe(200);
      const names = (summary.body.namespaces as { name: string }[]).map((n) => n.name);
      expect(names).toEqual(['demo-shop']);
      expect(summary.body).not.toHaveProperty('idleCost');
      expect(summary.body).not.toHaveProperty('nodesHourlyCost');
      const workloads = await asUser('/api/cost/workloads?window=1h', group);
      const namespaces = new Set(
        (workloads.body.workloads as { namespace: string }[]).map((w) => w.namespace),
      );
      expect([...namespaces]).toEqual(['demo-shop']);
      const trend = await asUser('/api/cost/trend?window=1h', group);
      expect((trend.body.series as { namespace: string }[]).map((s) => s.namespace)).toEqual(['demo-shop']);
      expect((await asUser('/api/cost/workload/Deployment/demo-shop/storefront', group)).status).toBe(200);
      for (const path of [
        '/api/cost/workloads?namespace=demo-data',
        '/api/cost/trend?namespace=demo-data',
        '/api/cost/nodes',
        '/api/cost/workload/Deployment/demo-billing/billing',
      ])
        expect([path, (await asUser(path, group)).status]).toEqual([path, 403]);
    } finally {
      await unbind();
    }
  });
});

describe('absence is an answer', () => {
  it('says which OpenCost series are missing, with 200, on every route', async () => {
    const summary = await noOpenCost.json('/api/cost/summary');
    expect(summary).toMatchObject({
      available: false,
      missing: ['node_cpu_hourly_cost', 'node_ram_hourly_cost'],
      reason: expect.stringContaining('node_cpu_hourly_cost'),
    });
    for (const path of [
      '/api/cost/workloads',
      '/api/cost/trend',
      '/api/cost/nodes',
      '/api/cost/workload/Deployment/demo-shop/storefront',
      '/api/cost/workload/Deployment/demo-shop/storefront/trend',
    ]) {
      const response = await noOpenCost.request(path);
      expect([path, response.status, ((await response.json()) as { available: boolean }).available]).toEqual([
        path,
        200,
        false,
      ]);
    }
    const set = { workloads: [{ kind: 'Deployment', namespace: 'demo-shop', name: 'storefront' }] };
    for (const path of ['/api/cost/application', '/api/cost/application/trend']) {
      const response = await noOpenCost.post(path, set);
      expect(await response.json()).toMatchObject({ available: false });
    }
  });

  it('says there is no store when none is configured or found', async () => {
    const unlock = await testCluster().lock(metricsStoreServiceLock);
    expect(await noStore.json('/api/cost/summary').finally(unlock)).toMatchObject({
      available: false,
      reason: expect.stringContaining('no metrics store'),
    });
  });
});

describe('bad input', () => {
  it('answers 400 naming the field for bad windows, kinds and bodies, and 404 for a missing workload', async () => {
    for (const path of [
      '/api/cost/summary?window=7d',
      '/api/cost/summary?window=30m',
      '/api/cost/trend?window=721h',
      '/api/cost/workload/ConfigMap/demo-shop/x',
      '/api/cost/workloads?limit=0',
    ]) {
      const response = await noStore.request(path);
      expect([path, response.status]).toEqual([path, 400]);
    }
    const window = await noStore.request('/api/cost/summary?window=7d');
    expect(((await window.json()) as { error: string }).error).toMatch(
      /^query parameter "window": "7d" is not a duration/,
    );
    const one = { kind: 'Deployment', namespace: 'demo-shop', name: 'storefront' };
    for (const body of [
      { workloads: [] },
      { workloads: Array.from({ length: 51 }, () => one) },
      { workloads: [{ ...one, replicas: 2 }] },
      { workloads: [one], window: '2d' },
    ])
      expect((await noStore.post('/api/cost/application', body)).status).toBe(400);
    expect((await noStore.request('/api/cost/workload/Deployment/demo-shop/nope')).status).toBe(404);
  });
});
