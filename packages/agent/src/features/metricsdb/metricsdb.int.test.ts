import {
  clusterInventory,
  type GeneratedMetrics,
  generateMetrics,
  type MetricsStoreServer,
  memoryAt,
  startPrometheus,
  startVictoriaMetrics,
  testCluster,
} from '@binnacle/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';
import { roundCpu, roundMemory } from './rightsizing.ts';

/**
 * The metrics store routes against a real Prometheus (Debian's, its TSDB backfilled with promtool) and a real
 * VictoriaMetrics (built from the Go module proxy, fed through its import API), both holding the same six hours
 * of seeded series for the test cluster's real pods and nodes. Expected numbers come from the generator's truths.
 */
let metrics: GeneratedMetrics;
const stores: Record<string, { server: MetricsStoreServer; agent: TestAgent }> = {};
const log = (line: string) => process.stderr.write(`[metricsdb] ${line}\n`);

beforeAll(async () => {
  metrics = generateMetrics(await clusterInventory(testCluster().kubeConfig()), { seed: 7 });
  const [prometheus, victoria] = await Promise.all([
    startPrometheus(metrics, { log }),
    startVictoriaMetrics(metrics, { log }),
  ]);
  for (const server of [prometheus, victoria]) {
    stores[server.kind] = { server, agent: await startTestAgent({ config: { metricsdbUrl: server.url } }) };
  }
}, 600_000);

afterAll(async () => {
  await Promise.all(Object.values(stores).flatMap(({ server, agent }) => [agent.close(), server.stop()]));
});

interface Chart {
  available: boolean;
  stepSeconds: number;
  series: { name: string; labels: Record<string, string>; points: [number, number | null][] }[];
}

const last = (chart: Chart, name: string, labels: Record<string, string> = {}) => {
  const series = chart.series.find(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  const point = series?.points.at(-1);
  if (!point)
    throw new Error(`no ${name} series ${JSON.stringify(labels)} in ${JSON.stringify(chart).slice(0, 500)}`);
  return point;
};
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
/** The sample index a point at `seconds` reads: the newest sample at or before it. */
const indexAt = (seconds: number) => Math.floor((seconds - metrics.start) / metrics.stepSeconds);

describe.each(['prometheus', 'victoriametrics'])('the metrics store routes on %s', (kind) => {
  const agent = () => stores[kind]?.agent as TestAgent;

  it('says which store answers and how it was found', async () => {
    const status = await agent().json('/api/metricsdb/status');
    expect(status).toMatchObject({ available: true, store: { kind, origin: 'flag', via: 'url' } });
  });

  it('charts the cluster: CPU usage is the sum of every container, over hours at the range step', async () => {
    const chart = await agent().json<Chart>('/api/metricsdb/cluster?category=cpu&range=6h');
    expect(chart.stepSeconds).toBe(300);
    const usage = chart.series.find((s) => s.name === 'usage');
    expect(usage?.points.length).toBeGreaterThan(60);
    // sum(rate(container_cpu_usage_seconds_total{container!=""}[5m])) over counters that grow at a constant rate
    expect(last(chart, 'usage')[1]).toBeCloseTo(sum(metrics.containers.map((c) => c.cpuCores)), 6);
    const allocatable = sum(metrics.inventory.nodes.map((n) => n.cpuCores - 0.1));
    expect(last(chart, 'allocatable')[1]).toBeCloseTo(allocatable, 6);
  });

  it("charts a namespace's working-set memory as the sum of its containers at that sample", async () => {
    const chart = await agent().json<Chart>('/api/metricsdb/namespace/demo-shop?category=memory&range=3h');
    const [at, value] = last(chart, 'usage');
    const inNamespace = metrics.containers.filter((c) => c.namespace === 'demo-shop');
    expect(value).toBe(sum(inNamespace.map((c) => memoryAt(metrics.seed, c, indexAt(at)))));
    expect(last(chart, 'requests')[1]).toBe(sum(inNamespace.map((c) => c.requests.memory ?? 0)));
  });

  it("charts a Deployment per pod, its pods found through their ReplicaSet, and a node's root cgroup", async () => {
    const chart = await agent().json<Chart>(
      '/api/metricsdb/resources/Deployment/demo-shop/storefront?category=cpu',
    );
    const pods = metrics.containers.filter(
      (c) => c.owner.kind === 'Deployment' && c.owner.name === 'storefront',
    );
    expect(pods.length).toBeGreaterThan(0);
    for (const pod of pods) expect(last(chart, 'usage', { pod: pod.pod })[1]).toBeCloseTo(pod.cpuCores, 6);
    expect(last(chart, 'requests')[1]).toBeCloseTo(sum(pods.map((c) => c.requests.cpu ?? 0)), 6);
    const node = metrics.inventory.nodes[0]?.name ?? '';
    const nodeChart = await agent().json<Chart>(
      `/api/metricsdb/resources/Node/${node}?category=cpu&range=30m`,
    );
    const onNode = metrics.containers.filter((c) => c.node === node);
    expect(last(nodeChart, 'usage')[1]).toBeCloseTo(0.1 + sum(onNode.map((c) => c.cpuCores)), 6);
    expect(last(nodeChart, 'capacity')[1]).toBe(metrics.inventory.nodes[0]?.cpuCores);
  });

  it('answers 404 for an object that does not exist and 400 for a kind without pods', async () => {
    const missing = await agent().request('/api/metricsdb/resources/Deployment/demo-shop/nope');
    expect(missing.status).toBe(404);
    const kindless = await agent().request('/api/metricsdb/resources/ConfigMap/demo-shop/x');
    expect([kindless.status, await kindless.json()]).toEqual([
      400,
      expect.objectContaining({ code: 'unknown_kind' }),
    ]);
  });

  it('rightsizes the over-provisioned storefront: p95 CPU + 15 %, peak memory + 20 %, per container', async () => {
    const answer = await agent().json<{
      window: string;
      replicas: number;
      containers: {
        container: string;
        recommended: Record<string, number>;
        cpu: string;
        memory: string;
        current: Record<string, number>;
      }[];
    }>('/api/metricsdb/rightsizing/Deployment/demo-shop/storefront?window=6h');
    const truths = metrics.containers.filter(
      (c) => c.owner.name === 'storefront' && c.namespace === 'demo-shop',
    );
    for (const row of answer.containers) {
      const mine = truths.filter((t) => t.container === row.container);
      const cpu = Math.max(...mine.map((t) => t.cpuCores));
      const memory = Math.max(...mine.map((t) => t.memoryPeakBytes));
      expect(row.recommended.cpuRequestCores).toBe(Math.max(0.01, roundCpu(cpu * 1.15)));
      expect(row.recommended.memoryRequestBytes).toBe(Math.max(16 * 2 ** 20, roundMemory(memory * 1.2)));
      expect(row.current.cpuRequestCores).toBe(mine[0]?.requests.cpu);
      expect([row.cpu, row.memory]).toEqual(['over-provisioned', 'over-provisioned']);
    }
    const scan = await agent().post('/api/metricsdb/rightsizing/scan', {
      namespace: 'demo-shop',
      window: '6h',
    });
    const scanned = (await scan.json()) as { workloads: { name: string; containers: unknown[] }[] };
    expect(scanned.workloads.find((w) => w.name === 'storefront')?.containers).toEqual(answer.containers);
  });

  it('passes instant and range queries through, bounded, and returns the store’s words for bad PromQL', async () => {
    const instant = await agent().json<{ resultType: string; result: { value: [number, string] }[] }>(
      `/api/metricsdb/query?query=${encodeURIComponent('sum(kube_node_status_capacity{resource="cpu"})')}`,
    );
    expect(Number(instant.result[0]?.value[1])).toBe(sum(metrics.inventory.nodes.map((n) => n.cpuCores)));
    const range = await agent().json<{ type: string; result: { values: unknown[] }[] }>(
      `/api/metricsdb/query?query=${encodeURIComponent('sum(node_total_hourly_cost)')}&start=2h&step=60`,
    );
    expect(range.type).toBe('range');
    expect(range.result[0]?.values).toHaveLength(121);
    const tooMany = await agent().request('/api/metricsdb/query?query=up&start=24h&step=1s');
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as { error: string }).error).toMatch(
      /^step: 86401 points per series exceed the limit of 11000/,
    );
    const bad = await agent().request(`/api/metricsdb/query?query=${encodeURIComponent('sum(')}`);
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { code: string; error: string };
    expect(body.code).toBe('invalid_query');
    expect(body.error).toMatch(/^the metrics store refused the query: .+/);
  });
});
