import {
  clusterInventory,
  type FlowTruth,
  freePort,
  type GeneratedMetrics,
  generateMetrics,
  type MetricsStoreServer,
  openSse,
  startPrometheus,
  testCluster,
} from '@binnacle/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindInNamespace, sendFrom, startTestAgent, type TestAgent } from '../../testing/index.ts';

/**
 * Istio, Caretta and Beyla read from a real Prometheus holding the generator's series for the test cluster's
 * pods (no istiod or DaemonSet runs: their series alone make them present). Over a window of W seconds a
 * counter growing at r per second adds up to r × W, so each pair must show requests = rps × W,
 * errors = rps × errorRatio × W and bytes = bytesPerSecond × W (1 % tolerance for the store's extrapolation).
 */
const proxyAddress = '127.0.0.2';
const user = 'traffic-metrics-viewer@example.com';
const windowS = 300;
let metrics: GeneratedMetrics;
let prometheus: MetricsStoreServer;
let agent: TestAgent;
let proxied: TestAgent;
let storeless: TestAgent;
const log = (line: string) => process.stderr.write(`[traffic-metrics] ${line}\n`);

beforeAll(async () => {
  metrics = generateMetrics(await clusterInventory(testCluster().kubeConfig()), { seed: 34, hours: 1 });
  prometheus = await startPrometheus(metrics, { log });
  const config = { metricsdbUrl: prometheus.url };
  [agent, proxied, storeless] = await Promise.all([
    startTestAgent({ config }),
    startTestAgent({ config: { ...config, authMode: 'proxy', authProxyAddresses: proxyAddress } }),
    startTestAgent({ config: { metricsdbUrl: `http://127.0.0.1:${await freePort()}` } }),
  ]);
}, 300_000);

afterAll(async () => {
  await Promise.all([agent?.close(), proxied?.close(), storeless?.close(), prometheus?.stop()]);
});

interface Pair {
  id: string;
  source: { id: string };
  destination: { id: string };
  requests: number;
  errors: number;
  bytes?: number;
  httpStatus: Record<string, number>;
}
type Flows = { available: true; source: string; pairs: Pair[] } | { available: false; reason: string };

const id = (end: { kind: string; namespace: string; workload: string }) =>
  `${end.kind.toLowerCase()}/${end.namespace}/${end.workload}`;
const pairId = (truth: FlowTruth) => `${id(truth.source)}→${id(truth.destination)}`;
const near = (actual: number | undefined, expected: number) =>
  expect(Math.abs((actual ?? Number.NaN) - expected)).toBeLessThanOrEqual(Math.max(1, expected * 0.01));

async function flowsOf(source: string, path = `/api/traffic/flows?since=${windowS}s&limit=5000`) {
  expect(await (await agent.post('/api/traffic/source', { source })).json()).toEqual({
    preferred: source,
    active: source,
  });
  const answer = await agent.json<Flows>(path);
  if (!answer.available) throw new Error(`no ${source} flows: ${answer.reason}`);
  expect(answer.source).toBe(source);
  return new Map(answer.pairs.map((p) => [p.id, p]));
}

describe('metric-based traffic sources', () => {
  it('finds Istio, Caretta and Beyla from their series alone; Istio is first in detection order', async () => {
    expect(metrics.flows.length).toBeGreaterThan(2);
    const sources = await agent.json<{ active: string; sources: { name: string; status: string }[] }>(
      '/api/traffic/sources',
    );
    expect(sources.sources.map((s) => [s.name, s.status])).toEqual([
      ['hubble', 'not_found'],
      ['istio', 'available'],
      ['caretta', 'available'],
      ['beyla', 'available'],
    ]);
    expect(sources.active).toBe('istio');
  });

  it('Istio: requests, 5xx errors and TCP bytes per workload pair, as the destination reported them', async () => {
    const pairs = await flowsOf('istio');
    for (const truth of metrics.flows) {
      const pair = pairs.get(pairId(truth));
      near(pair?.requests, truth.requestsPerSecond * windowS);
      near(pair?.errors, truth.requestsPerSecond * truth.errorRatio * windowS);
      near(pair?.httpStatus['500'], truth.requestsPerSecond * truth.errorRatio * windowS);
      near(pair?.bytes, truth.bytesPerSecond * windowS);
    }
  });

  it('Caretta: the bytes of each client → server link over the window', async () => {
    const pairs = await flowsOf('caretta');
    for (const truth of metrics.flows) {
      const pair = pairs.get(pairId(truth));
      near(pair?.bytes, truth.bytesPerSecond * windowS);
      expect(pair).toMatchObject({ requests: 0, ports: [{ protocol: 'TCP', port: 8080, flows: 1 }] });
    }
  });

  it('Beyla: network bytes by owner joined with the server-side HTTP requests and errors', async () => {
    const pairs = await flowsOf('beyla');
    for (const truth of metrics.flows) {
      const pair = pairs.get(pairId(truth));
      near(pair?.bytes, truth.bytesPerSecond * windowS);
      near(pair?.requests, truth.requestsPerSecond * windowS);
      near(pair?.errors, truth.requestsPerSecond * truth.errorRatio * windowS);
    }
  });

  it('draws the pairs with their bytes as traffic edges in the topology', async () => {
    await flowsOf('caretta');
    const truth = metrics.flows[0] as FlowTruth;
    const graph = await agent.json<{
      edges: { type: string; source: string; target: string; data?: Pair }[];
    }>(`/api/topology?namespaces=${truth.source.namespace}&view=traffic`);
    const edge = graph.edges.find(
      (e) => e.type === 'traffic' && e.source === id(truth.source) && e.target === id(truth.destination),
    );
    near(edge?.data?.bytes, truth.bytesPerSecond * 300);
  });

  it('streams a snapshot of the pairs read from the store', async () => {
    await flowsOf('istio');
    const truth = metrics.flows[0] as FlowTruth;
    const stream = await openSse(`${agent.url}/api/traffic/flows/stream?since=${windowS}s`);
    try {
      const snapshot = await stream.next((e) => e.event === 'snapshot', 15_000);
      const data = snapshot.data as { source: string; pairs: Pair[] };
      expect(data.source).toBe('istio');
      near(data.pairs.find((p) => p.id === pairId(truth))?.requests, truth.requestsPerSecond * windowS);
      // Choosing another source restarts the open stream on it with a whole snapshot.
      expect((await agent.post('/api/traffic/source', { source: 'caretta' })).status).toBe(200);
      const switched = await stream.next(
        (e) => e.event === 'snapshot' && e.receivedAt > snapshot.receivedAt,
        15_000,
      );
      expect(switched.data).toMatchObject({ available: true, source: 'caretta' });
    } finally {
      stream.close();
    }
  }, 45_000);

  it('shows a restricted caller (Istio, the first found) its namespace; every peer outside it is hidden', async () => {
    const truth = metrics.flows.find((f) => f.source.namespace !== f.destination.namespace) as FlowTruth;
    expect(truth).toBeDefined();
    const mine = truth.destination.namespace;
    const unbind = await bindInNamespace(mine, { kind: 'User', name: user });
    try {
      const seen = await sendFrom(
        proxied,
        `/api/traffic/flows?since=${windowS}s`,
        { 'x-forwarded-user': user },
        proxyAddress,
      );
      expect(seen.status).toBe(200);
      const pairs = seen.body.pairs as Pair[];
      const expected = metrics.flows.filter(
        (f) => f.source.namespace === mine || f.destination.namespace === mine,
      );
      const hiddenIn = expected.filter((f) => f.source.namespace !== mine);
      const hidden = pairs.find((p) => p.id === `hidden→${id(truth.destination)}`);
      near(
        hidden?.bytes,
        hiddenIn
          .filter((f) => id(f.destination) === id(truth.destination))
          .reduce((a, f) => a + f.bytesPerSecond, 0) * windowS,
      );
      for (const pair of pairs)
        for (const end of [pair.source.id, pair.destination.id])
          expect(end === 'hidden' || end.split('/')[1] === mine).toBe(true);
    } finally {
      await unbind();
    }
  });

  it('answers available:false with the reason when the store does not answer, for a chosen source', async () => {
    await (await storeless.post('/api/traffic/source', { source: 'istio' })).json();
    const flows = await storeless.request('/api/traffic/flows');
    expect(flows.status).toBe(200);
    expect(await flows.json()).toMatchObject({
      available: false,
      reason: expect.stringContaining('no metrics store'),
    });
    const sources = await storeless.json<{ sources: { name: string; status: string; message: string }[] }>(
      '/api/traffic/sources',
    );
    expect(sources.sources[1]).toMatchObject({
      name: 'istio',
      status: 'not_found',
      message: expect.stringContaining('does not answer'),
    });
  });
});
