import {
  clusterInventory,
  generateMetrics,
  type MetricsStoreServer,
  openSse,
  startPrometheus,
  testCluster,
  waitUntil,
} from '@binnacle/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';

/**
 * Every route that reads the metrics store — the store's own, cost, and traffic from Istio's series — while the
 * store hangs (its process stopped: connections are accepted, nothing answers) and while it is gone: 200 with
 * `available:false` and the reason within the agent's time-out, then figures again once it is back.
 */
let prometheus: MetricsStoreServer;
let agent: TestAgent;
const timeoutMs = 2000;
const workload = 'Deployment/demo-shop/storefront';
const application = {
  window: '1h',
  workloads: [{ kind: 'Deployment', namespace: 'demo-shop', name: 'storefront' }],
};

const reads: { path: string; body?: unknown }[] = [
  { path: '/api/metricsdb/cluster' },
  { path: '/api/metricsdb/namespace/demo-shop' },
  { path: `/api/metricsdb/resources/${workload}` },
  { path: `/api/metricsdb/rightsizing/${workload}` },
  { path: '/api/metricsdb/query?query=up' },
  { path: '/api/metricsdb/rightsizing/scan', body: { namespace: 'demo-shop', window: '1h' } },
  { path: '/api/cost/summary' },
  { path: '/api/cost/workloads?namespace=demo-shop' },
  { path: '/api/cost/trend?window=2h' },
  { path: '/api/cost/nodes' },
  { path: `/api/cost/workload/${workload}` },
  { path: `/api/cost/workload/${workload}/trend?window=2h` },
  { path: '/api/cost/application', body: application },
  { path: '/api/cost/application/trend', body: application },
  { path: '/api/traffic/flows' },
];

beforeAll(async () => {
  const metrics = generateMetrics(await clusterInventory(testCluster().kubeConfig()), { seed: 41, hours: 3 });
  prometheus = await startPrometheus(metrics, {
    log: (line) => process.stderr.write(`[store-outage] ${line}\n`),
  });
  agent = await startTestAgent({ config: { metricsdbUrl: prometheus.url, metricsdbTimeoutMs: timeoutMs } });
  // Istio reads the store; Hubble (first in the detection order) does not, and there is no relay here.
  expect((await agent.post('/api/traffic/source', { source: 'istio' })).status).toBe(200);
}, 300_000);

afterAll(async () => {
  await Promise.all([agent?.close(), prometheus?.stop()]);
});

type Answer = { path: string; status: number; available?: boolean; reason?: string; ms: number };

async function readAll(): Promise<Answer[]> {
  return Promise.all(
    reads.map(async ({ path, body }) => {
      const started = Date.now();
      const response = body === undefined ? await agent.request(path) : await agent.post(path, body);
      const answer = (await response.json()) as { available?: boolean; reason?: string };
      return { path, status: response.status, ...answer, ms: Date.now() - started };
    }),
  );
}

const summary = (answers: Answer[]) =>
  answers.map(({ path, status, available }) => ({ path, status, available }));
const allAvailable = (answers: Answer[]) => answers.every((a) => a.status === 200 && a.available === true);

describe('the metrics store going away', () => {
  it('serves every route while the store answers', async () => {
    const answers = await readAll();
    expect(summary(answers)).toEqual(reads.map(({ path }) => ({ path, status: 200, available: true })));
  });

  it('answers available:false within the time-out while the store hangs, and recovers when it answers', async () => {
    const stream = await openSse(`${agent.url}/api/traffic/flows/stream?since=600s`);
    try {
      expect((await stream.next((e) => e.event === 'snapshot', 15_000)).data).toMatchObject({
        available: true,
        source: 'istio',
      });
      prometheus.freeze();
      let failedAt = Number.POSITIVE_INFINITY;
      try {
        const answers = await readAll();
        expect(summary(answers)).toEqual(reads.map(({ path }) => ({ path, status: 200, available: false })));
        for (const answer of answers) {
          expect(answer.reason, answer.path).toMatch(/\S/);
          // One read per route at most waits the time-out; the store's failure then answers the rest at once.
          expect(answer.ms, answer.path).toBeLessThan(timeoutMs * 2 + 1500);
        }
        // The stream polls every 15 s and says the read failed, then goes on.
        const error = await stream.next((e) => e.event === 'error', 40_000);
        expect(error.data).toMatchObject({ available: false, reason: expect.stringMatching(/\S/) });
        failedAt = error.receivedAt;
      } finally {
        prometheus.thaw();
      }
      await waitUntil('every route to read the store again', async () => allAvailable(await readAll()), {
        timeoutMs: 40_000,
        intervalMs: 1000,
      });
      // Once the store answers again the stream starts over with a whole snapshot.
      const again = await stream.next((e) => e.event === 'snapshot' && e.receivedAt > failedAt, 40_000);
      expect(again.data).toMatchObject({ available: true, source: 'istio' });
    } finally {
      stream.close();
    }
  });

  it('answers available:false naming the store while it is gone, and recovers when it is back', async () => {
    await prometheus.halt();
    try {
      const answers = await readAll();
      expect(summary(answers)).toEqual(reads.map(({ path }) => ({ path, status: 200, available: false })));
      for (const answer of answers) expect(answer.ms, answer.path).toBeLessThan(timeoutMs + 1500);
      expect(answers.find((a) => a.path === '/api/cost/summary')?.reason).toContain(prometheus.url);
    } finally {
      await prometheus.resume();
    }
    await waitUntil('every route to read the store again', async () => allAvailable(await readAll()), {
      timeoutMs: 40_000,
      intervalMs: 1000,
    });
  });
});
