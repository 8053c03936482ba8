import {
  type ContainerTruth,
  clusterInventory,
  type GeneratedMetrics,
  generateMetrics,
  type MetricsStoreServer,
  memoryAt,
  startPrometheus,
  testCluster,
} from '@binnacle/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';
import type { Figures } from './math.ts';

/**
 * The cost routes against a real Prometheus holding four hours of seeded OpenCost and cAdvisor series for the
 * test cluster's real pods. Expected figures are computed from the generator's truths with OpenCost's formula:
 * cost = allocation × the node's price, allocation = max(request, usage) per container, averaged over the
 * window's samples (t − window, t]. A query runs at some t between two clocks read around the request, so a
 * figure must equal the expectation at one of them.
 */
let metrics: GeneratedMetrics;
let prometheus: MetricsStoreServer;
let agent: TestAgent;
const gib = 2 ** 30;
const hour = 3600;

beforeAll(async () => {
  metrics = generateMetrics(await clusterInventory(testCluster().kubeConfig()), { seed: 13, hours: 4 });
  prometheus = await startPrometheus(metrics, { log: (line) => process.stderr.write(`[cost] ${line}\n`) });
  agent = await startTestAgent({ config: { metricsdbUrl: prometheus.url } });
}, 300_000);

afterAll(async () => {
  await Promise.all([agent?.close(), prometheus?.stop()]);
});

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const price = (node: string) => {
  const found = metrics.nodes.find((n) => n.node === node);
  if (!found) throw new Error(`no price for ${node}`);
  return found;
};
/** Sample indexes inside (t − window, t]. */
const indexes = (t: number, window: number) => {
  const first = Math.floor((t - window - metrics.start) / metrics.stepSeconds) + 1;
  const last = Math.floor((t - metrics.start) / metrics.stepSeconds);
  return Array.from({ length: last - first + 1 }, (_, k) => first + k);
};
const mean = (values: number[]) => sum(values) / values.length;

/** OpenCost's figures for some containers over the window ending at t. */
function expected(containers: ContainerTruth[], t: number, window = hour) {
  const at = indexes(t, window);
  const figures = containers.map((c) => {
    const { cpuHourlyCost: cpu, ramHourlyCostPerGiB: ram } = price(c.node);
    const memory = (f: (i: number) => number) => (mean(at.map(f)) / gib) * ram;
    return {
      cpuCost: Math.max(c.requests.cpu ?? 0, c.cpuCores) * cpu,
      memoryCost: memory((i) => Math.max(c.requests.memory ?? 0, memoryAt(metrics.seed, c, i))),
      usage: c.cpuCores * cpu + memory((i) => memoryAt(metrics.seed, c, i)),
    };
  });
  const cpuCost = sum(figures.map((f) => f.cpuCost));
  const memoryCost = sum(figures.map((f) => f.memoryCost));
  return {
    cpuCost,
    memoryCost,
    efficiency: (sum(figures.map((f) => f.usage)) / (cpuCost + memoryCost)) * 100,
  };
}

/** Reads a route between two clock readings; the answer must match the expectation at one of them. */
async function timed<T>(read: () => Promise<T>) {
  const before = Date.now() / 1000;
  const answer = await read();
  return { answer, times: [before, Date.now() / 1000] };
}
function matchesOneOf(actual: number, candidates: number[], tolerance = 1e-5) {
  const distance = Math.min(...candidates.map((c) => Math.abs(actual - c)));
  expect(distance, `${actual} is none of ${candidates.join(', ')}`).toBeLessThan(tolerance);
}

/** CPU and memory cost both match the expectation at one of the clock readings. */
function matchesCosts(
  actual: { cpuCost: number; memoryCost: number } | undefined,
  expectations: { cpuCost: number; memoryCost: number }[],
) {
  matchesOneOf(
    actual?.cpuCost ?? -1,
    expectations.map((e) => e.cpuCost),
  );
  matchesOneOf(
    actual?.memoryCost ?? -1,
    expectations.map((e) => e.memoryCost),
  );
}

interface Summary extends Figures {
  available: boolean;
  window: string;
  idleCost: number;
  nodesHourlyCost: number;
  namespaces: (Figures & { name: string; pods: number })[];
}

const inNamespace = (ns: string) => metrics.containers.filter((c) => c.namespace === ns);
const ofWorkload = (ns: string, name: string) =>
  metrics.containers.filter((c) => c.namespace === ns && c.owner.name === name);
const nodeHourly = (n: { cpuCores: number; memoryBytes: number; name: string }) =>
  price(n.name).cpuHourlyCost * n.cpuCores + (price(n.name).ramHourlyCostPerGiB * n.memoryBytes) / gib;

describe('cost from OpenCost series', () => {
  it('sums the cluster and each namespace: allocation × node price, storage, idle and efficiency', async () => {
    const { answer, times } = await timed(() => agent.json<Summary>('/api/cost/summary?window=1h'));
    expect(answer).toMatchObject({ available: true, window: '1h', currency: 'USD' });
    const all = times.map((t) => expected(metrics.containers, t));
    matchesCosts(answer, all);
    matchesOneOf(
      answer.efficiency ?? -1,
      all.map((e) => e.efficiency),
      0.011,
    );
    const storage = sum(metrics.inventory.volumes.map((v) => (metrics.pvHourlyCostPerGiB * v.bytes) / gib));
    expect(answer.storageCost).toBeCloseTo(storage, 5);
    const nodes = sum(metrics.inventory.nodes.map(nodeHourly));
    expect(answer.nodesHourlyCost).toBeCloseTo(nodes, 5);
    matchesOneOf(
      answer.idleCost,
      all.map((e) => nodes - e.cpuCost - e.memoryCost),
    );
    const shop = answer.namespaces.find((n) => n.name === 'demo-shop');
    const mine = times.map((t) => expected(inNamespace('demo-shop'), t));
    matchesCosts(shop, mine);
    expect(shop?.pods).toBe(new Set(inNamespace('demo-shop').map((c) => c.pod)).size);
  });

  it('rolls pods up to their workloads, and prices one workload with its pods', async () => {
    const { answer, times } = await timed(() =>
      agent.json<{ workloads: (Figures & { kind: string; name: string })[] }>(
        '/api/cost/workloads?namespace=demo-shop&window=1h',
      ),
    );
    const storefront = answer.workloads.find((w) => w.name === 'storefront');
    expect(storefront?.kind).toBe('Deployment');
    const want = times.map((t) => expected(ofWorkload('demo-shop', 'storefront'), t));
    matchesCosts(storefront, want);
    const one = await timed(() =>
      agent.json<Figures & { pods: { name: string }[] }>(
        '/api/cost/workload/Deployment/demo-shop/storefront?window=1h',
      ),
    );
    const again = one.times.map((t) => expected(ofWorkload('demo-shop', 'storefront'), t));
    matchesCosts(one.answer, again);
    expect(one.answer.pods.map((p) => p.name).sort()).toEqual(
      [...new Set(ofWorkload('demo-shop', 'storefront').map((c) => c.pod))].sort(),
    );
  });

  it("costs each node as OpenCost's prices × its capacity", async () => {
    const answer = await agent.json<{ nodes: { name: string; cpuCost: number; hourlyCost: number }[] }>(
      '/api/cost/nodes',
    );
    expect(answer.nodes).toHaveLength(metrics.inventory.nodes.length);
    for (const node of metrics.inventory.nodes) {
      const row = answer.nodes.find((n) => n.name === node.name);
      expect(row?.cpuCost).toBeCloseTo(price(node.name).cpuHourlyCost * node.cpuCores, 6);
      expect(row?.hourlyCost).toBeCloseTo(price(node.name).totalHourlyCost, 5);
    }
  });

  it('draws trends with a bounded number of points; the last point is the cost at its sample', async () => {
    const trend = await agent.json<{
      stepSeconds: number;
      series: { namespace: string; points: [number, number][] }[];
    }>('/api/cost/trend?window=1h');
    expect(trend.stepSeconds).toBe(60);
    const shop = trend.series.find((s) => s.namespace === 'demo-shop');
    expect(shop?.points).toHaveLength(61);
    const [t, value] = shop?.points.at(-1) ?? [0, -1];
    // An instant at t reads the newest sample at or before t: the window is that one sample.
    const atSample = expected(inNamespace('demo-shop'), t, metrics.stepSeconds);
    expect(value).toBeCloseTo(atSample.cpuCost + atSample.memoryCost, 5);
    const workload = await agent.json<{ stepSeconds: number; points: unknown[] }>(
      '/api/cost/workload/Deployment/demo-shop/storefront/trend?window=3h',
    );
    expect([workload.stepSeconds, workload.points.length]).toEqual([120, 91]);
  });

  it('prices a set of workloads together, and draws its trend', async () => {
    const checkout = ofWorkload('demo-shop', 'checkout');
    expect(checkout.length).toBeGreaterThan(0);
    const body = {
      window: '1h',
      workloads: [
        { kind: 'Deployment', namespace: 'demo-shop', name: 'storefront' },
        { kind: checkout[0]?.owner.kind, namespace: 'demo-shop', name: 'checkout' },
      ],
    };
    const { answer: response, times } = await timed(() => agent.post('/api/cost/application', body));
    const answer = (await response.json()) as Figures & { workloads: Figures[] };
    expect(response.status).toBe(200);
    const both = times.map((t) => expected([...ofWorkload('demo-shop', 'storefront'), ...checkout], t));
    matchesCosts(answer, both);
    expect(answer.workloads).toHaveLength(2);
    const trend = await agent.post('/api/cost/application/trend', { ...body, window: '2h' });
    const points = ((await trend.json()) as { points: [number, number][] }).points;
    expect(points).toHaveLength(121);
  });
});
