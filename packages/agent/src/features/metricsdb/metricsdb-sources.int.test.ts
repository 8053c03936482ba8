import {
  type BearerProxy,
  clusterInventory,
  generateMetrics,
  type MetricsStoreServer,
  metricsStoreServiceLock,
  startBearerProxy,
  startPrometheus,
  testCluster,
  waitUntil,
} from '@binnacle/testkit';
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindInNamespace, sendFrom, startTestAgent, type TestAgent } from '../../testing/index.ts';

/**
 * Where the store comes from and what happens without one: no store, a Service found by discovery, a store
 * behind a gateway that wants a bearer token (a loopback proxy: Prometheus itself has no auth), a store that
 * stops and comes back, and callers who may see only some namespaces.
 */
let prometheus: MetricsStoreServer;
let proxy: BearerProxy;
let bare: TestAgent;
const token = 'metrics-reader-token';
const log = (line: string) => process.stderr.write(`[metricsdb] ${line}\n`);

beforeAll(async () => {
  const metrics = generateMetrics(await clusterInventory(testCluster().kubeConfig()), { seed: 9, hours: 2 });
  [prometheus, bare] = await Promise.all([startPrometheus(metrics, { log }), startTestAgent()]);
  proxy = await startBearerProxy(prometheus.url, token);
}, 300_000);

afterAll(async () => {
  await Promise.all([bare?.close(), proxy?.close(), prometheus?.stop()]);
});

describe('metrics store sources', () => {
  it('answers 200 available:false with the reason when there is no store, on every read route', async () => {
    const unlock = await testCluster().lock(metricsStoreServiceLock);
    const status = await bare.json('/api/metricsdb/status').finally(unlock);
    expect(status).toMatchObject({
      available: false,
      reason: expect.stringContaining('no metrics store configured'),
    });
    for (const path of [
      '/api/metricsdb/cluster',
      '/api/metricsdb/namespace/demo-shop',
      '/api/metricsdb/query?query=up',
    ]) {
      const res = await bare.request(path);
      expect([path, res.status, await res.json()]).toEqual([
        path,
        200,
        expect.objectContaining({ available: false }),
      ]);
    }
  });

  it('connects to a store behind a bearer-token gateway only with the token, and reads through it', async () => {
    const refused = await bare.post('/api/metricsdb/connect', { url: proxy.url });
    expect(refused.status).toBe(502);
    const body = (await refused.json()) as { code: string; error: string };
    expect(body.code).toBe('metrics_store_error');
    expect(body.error).toContain(`tried ${proxy.url}/api/v1`);
    expect(body.error).toContain('credentials refused (HTTP 401)');
    const notAStore = await bare.post('/api/metricsdb/connect', { url: `${bare.url}/api/health` });
    expect(notAStore.status).toBe(502);
    // Header names are bounded before anything is dialled: empty or over 256 characters is a 400.
    for (const name of ['', 'x'.repeat(257)]) {
      const unbounded = await bare.post('/api/metricsdb/connect', {
        url: proxy.url,
        headers: { [name]: 'v' },
      });
      expect(unbounded.status).toBe(400);
      expect(await unbounded.json()).toMatchObject({ code: 'invalid_request' });
    }

    const connected = await bare.post('/api/metricsdb/connect', { url: proxy.url, bearerToken: token });
    expect(connected.status).toBe(200);
    expect(await connected.json()).toMatchObject({
      available: true,
      store: { kind: 'prometheus', origin: 'connect', url: proxy.url },
    });
    const before = proxy.refused;
    const chart = await bare.json<{ available: boolean }>('/api/metricsdb/cluster?category=memory');
    expect(chart.available).toBe(true);
    expect(proxy.refused).toBe(before);
  });

  it('says available:false within the time-out while the store is down, and recovers when it is back', async () => {
    const agent = await startTestAgent({
      config: { metricsdbUrl: prometheus.url, metricsdbTimeoutMs: 2000 },
    });
    try {
      expect(await agent.json('/api/metricsdb/cluster')).toMatchObject({ available: true });
      await prometheus.halt();
      const started = Date.now();
      const down = await agent.json<{ available: boolean; reason: string }>('/api/metricsdb/cluster');
      expect(down.available).toBe(false);
      expect(down.reason).toContain(prometheus.url);
      expect(Date.now() - started).toBeLessThan(5000);
      await prometheus.resume();
      await waitUntil(
        'the agent to read the store again',
        async () => (await agent.json<{ available: boolean }>('/api/metricsdb/cluster')).available,
        { timeoutMs: 40_000, intervalMs: 1000 },
      );
    } finally {
      await agent.close();
    }
  });

  it('finds a Prometheus Service by its well-known name and says what it tried when it cannot reach it', async () => {
    const unlock = await testCluster().lock(metricsStoreServiceLock);
    const ns = await testCluster().namespace('metricsdb-disc');
    const core = testCluster().kubeConfig().makeApiClient(CoreV1Api);
    try {
      await core.createNamespacedService({
        namespace: ns.name,
        body: {
          metadata: { name: 'prometheus-server' },
          spec: { selector: { app: 'prometheus-absent' }, ports: [{ port: 80, targetPort: 9090 }] },
        },
      });
      const agent = await startTestAgent();
      try {
        const status = await agent.json<{ available: boolean; tried: string[] }>('/api/metricsdb/status');
        expect(status.available).toBe(false);
        expect(status.tried).toContainEqual(
          expect.stringContaining(
            `service ${ns.name}/prometheus-server:80: service ${ns.name}/prometheus-server has no ready pod`,
          ),
        );
      } finally {
        await agent.close();
      }
    } finally {
      await ns.remove();
      await unlock();
    }
  });

  it('finds a Prometheus exposed as a Service in the cluster and reads it through a port-forward', async () => {
    const cluster = testCluster();
    const unlock = await cluster.lock(metricsStoreServiceLock);
    const ns = await cluster.namespace('metricsdb-svc');
    const core = cluster.kubeConfig().makeApiClient(CoreV1Api);
    const custom = cluster.kubeConfig().makeApiClient(CustomObjectsApi);
    const pod = 'prometheus-0';
    try {
      // The simulated pod's port 9090 leads, through kwok's PortForward for that one pod, to the real
      // Prometheus on loopback: the path a port-forward from the agent's host takes to an in-cluster store.
      await custom.createNamespacedCustomObject({
        group: 'kwok.x-k8s.io',
        version: 'v1alpha1',
        namespace: ns.name,
        plural: 'portforwards',
        body: {
          apiVersion: 'kwok.x-k8s.io/v1alpha1',
          kind: 'PortForward',
          metadata: { name: pod },
          spec: {
            forwards: [
              { ports: [9090], target: { address: '127.0.0.1', port: Number(new URL(prometheus.url).port) } },
            ],
          },
        },
      });
      await core.createNamespacedPod({
        namespace: ns.name,
        body: {
          metadata: { name: pod, labels: { 'app.kubernetes.io/name': 'prometheus' } },
          spec: {
            containers: [
              {
                name: 'prometheus',
                image: 'quay.io/prometheus/prometheus',
                ports: [{ name: 'web', containerPort: 9090 }],
              },
            ],
          },
        },
      });
      await core.createNamespacedService({
        namespace: ns.name,
        body: {
          metadata: { name: 'prometheus-operated' },
          spec: {
            selector: { 'app.kubernetes.io/name': 'prometheus' },
            ports: [{ name: 'web', port: 9090, targetPort: 'web' }],
          },
        },
      });
      const agent = await startTestAgent();
      try {
        type Status = { available: boolean; store?: Record<string, unknown>; reason?: string };
        let status: Status = { available: false };
        await waitUntil(
          'the agent to find the in-cluster Prometheus',
          async () => {
            status = await agent.json<Status>('/api/metricsdb/status');
            return status.available;
          },
          { timeoutMs: 40_000, intervalMs: 1000 },
        );
        expect(status.store).toMatchObject({
          kind: 'prometheus',
          origin: 'discovered',
          via: 'port-forward',
          service: { namespace: ns.name, name: 'prometheus-operated', port: 9090 },
        });
        // The seeded series come back through the forward, for the metrics store and for cost alike.
        const query = await agent.json<{ available: boolean; result?: unknown[] }>(
          '/api/metricsdb/query?query=count(node_cpu_hourly_cost)',
        );
        expect(query).toMatchObject({ available: true });
        expect(await agent.json('/api/cost/summary')).toMatchObject({ available: true, currency: 'USD' });
      } finally {
        await agent.close();
      }
    } finally {
      await ns.remove();
      await unlock();
    }
  });
});

/** A request from 127.0.0.2, the trusted proxy of `--auth-mode proxy`, acting for a user in a group. */
const asUser = async (agent: TestAgent, path: string, group: string) =>
  (
    await sendFrom(
      agent,
      path,
      { 'x-forwarded-user': 'metrics-reader@example.com', 'x-forwarded-groups': group },
      '127.0.0.2',
    )
  ).status;

describe('metrics store reads as the caller', () => {
  it('answers a namespace only to callers who may list its pods; cluster-wide and raw queries need all namespaces', async () => {
    const group = 'metricsdb-team';
    const [agent, unbind] = await Promise.all([
      startTestAgent({
        config: { metricsdbUrl: prometheus.url, authMode: 'proxy', authProxyAddresses: '127.0.0.2' },
      }),
      bindInNamespace('demo-shop', { kind: 'Group', name: group }),
    ]);
    try {
      expect(await asUser(agent, '/api/metricsdb/namespace/demo-shop', group)).toBe(200);
      expect(await asUser(agent, '/api/metricsdb/resources/Deployment/demo-shop/storefront', group)).toBe(
        200,
      );
      expect(await asUser(agent, '/api/metricsdb/namespace/demo-data', group)).toBe(403);
      expect(await asUser(agent, '/api/metricsdb/cluster', group)).toBe(403);
      expect(await asUser(agent, '/api/metricsdb/query?query=up', group)).toBe(403);
      expect(await asUser(agent, '/api/metricsdb/status', group)).toBe(200);
    } finally {
      await Promise.all([agent.close(), unbind()]);
    }
  });
});
