import {
  freePort,
  type HubbleServer,
  hubbleFlow,
  metricsStoreServiceLock,
  startHubbleServer,
  testCluster,
  world,
} from '@binnacle/testkit';
import { CoreV1Api, type V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';
import { cached, trafficPods } from '../../testing/traffic-pods.ts';

let hubble: HubbleServer;
/** Reads the Hubble stand-in through --hubble-address. */
let agent: TestAgent;
/** Has no source at all until the test gives it one. */
let bare: TestAgent;
let ns: { name: string; remove: () => Promise<void> };
let pods: { api: V1Pod; client: V1Pod };

beforeAll(async () => {
  hubble = await startHubbleServer();
  [agent, bare, ns] = await Promise.all([
    startTestAgent({ config: { hubbleAddress: hubble.address } }),
    startTestAgent(),
    testCluster().namespace('traffic'),
  ]);
  pods = await trafficPods(ns.name);
  await Promise.all([cached(agent, [pods.api, pods.client]), cached(bare, [pods.api, pods.client])]);
});

afterAll(async () => {
  await Promise.all([agent?.close(), bare?.close(), ns?.remove(), hubble?.close()]);
});

describe('traffic without a source', () => {
  it('answers 200 available:false with a reason and a recommendation, never a 500', async () => {
    // Istio, Caretta and Beyla are read from a metrics store: none may be discoverable meanwhile.
    const unlock = await testCluster().lock(metricsStoreServiceLock);
    onTestFinished(unlock);
    const sources = await bare.json<{
      active: null;
      sources: { name: string; status: string }[];
      recommendation: { name: string };
    }>('/api/traffic/sources');
    expect(sources.active).toBeNull();
    expect(sources.sources.map((s) => s.name)).toEqual(['hubble', 'istio', 'caretta', 'beyla']);
    expect(sources.recommendation.name).toBe('caretta');
    const flows = await bare.request('/api/traffic/flows');
    expect(flows.status).toBe(200);
    expect(await flows.json()).toMatchObject({
      available: false,
      reason: expect.stringContaining('no traffic source'),
      recommendation: { name: 'caretta' },
    });
  });

  it('refuses bad input with 400 naming it: window, source name, address', async () => {
    const window = await bare.request('/api/traffic/flows?since=7d');
    expect(window.status).toBe(400);
    expect(await window.json()).toMatchObject({
      code: 'invalid_request',
      error: expect.stringContaining('since'),
    });
    const long = await bare.request('/api/traffic/flows?since=2h');
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ error: expect.stringContaining('between 10s and 1h') });
    const source = await bare.post('/api/traffic/source', { source: 'linkerd' });
    expect(source.status).toBe(400);
    expect((await source.json()) as object).toMatchObject({
      code: 'invalid_request',
      error: expect.stringContaining('hubble, istio, caretta, beyla'),
    });
    const address = await bare.post('/api/traffic/connect', { address: 'not an address' });
    expect(address.status).toBe(400);
    expect(await address.json()).toMatchObject({
      code: 'invalid_request',
      error: expect.stringContaining('address'),
    });
  });

  it('reports what a connect tried: an address with no relay, then the relay Service through a port-forward', async () => {
    const nothing = await bare.post('/api/traffic/connect', { address: `127.0.0.1:${await freePort()}` });
    expect(nothing.status).toBe(200);
    const refused = (await nothing.json()) as {
      available: boolean;
      status: string;
      tried: { via: string; error?: string }[];
    };
    expect(refused).toMatchObject({
      available: false,
      status: 'error',
      tried: [{ via: 'request', error: expect.any(String) }],
    });
    const core = testCluster().kubeConfig().makeApiClient(CoreV1Api);
    await core.createNamespacedService({
      namespace: ns.name,
      body: {
        metadata: { name: 'hubble-relay' },
        spec: { selector: { app: 'client' }, ports: [{ port: 4245, targetPort: 4245 }] },
      },
    });
    const relay = `${ns.name}/hubble-relay`;
    await expect
      .poll(
        async () =>
          (await bare.json<{ sources: { found?: string }[] }>('/api/traffic/sources')).sources[0]?.found,
        { timeout: 10_000 },
      )
      .toBe(relay);
    const none = await bare.post('/api/traffic/connect', {});
    // The simulated pod answers a port-forward with an echo, not gRPC: the forward works, ServerStatus does not.
    const forwarded = (await none.json()) as {
      available: boolean;
      tried: { via: string; address: string; error?: string }[];
    };
    expect(forwarded.available).toBe(false);
    expect(forwarded.tried).toEqual([
      {
        via: 'port-forward',
        address: expect.stringMatching(/^127\.0\.0\.1:\d+$/),
        error: expect.any(String),
      },
    ]);
    const state = await bare.json<{ status: string; tried: unknown[] }>('/api/traffic/connection');
    expect(state.status).toBe('error');
    await core.deleteNamespacedService({ namespace: ns.name, name: 'hubble-relay' });
  });
});

describe('traffic from Hubble', () => {
  it('detects Hubble first and connects to the relay of --hubble-address', async () => {
    const sources = await agent.json<{ active: string; sources: { name: string; status: string }[] }>(
      '/api/traffic/sources',
    );
    expect(sources.active).toBe('hubble');
    expect(sources.sources[0]).toMatchObject({ name: 'hubble', status: 'available' });
    const connected = await agent.post('/api/traffic/connect');
    expect(await connected.json()).toMatchObject({
      status: 'connected',
      available: true,
      via: 'flag',
      address: hubble.address,
      version: 'v1.20.2',
    });
    expect(await agent.json('/api/traffic/connection')).toMatchObject({
      status: 'connected',
      address: hubble.address,
    });
    expect(await agent.json('/api/traffic/source')).toEqual({ preferred: null, active: 'hubble' });
    expect(await (await agent.post('/api/traffic/source', { source: 'istio' })).json()).toEqual({
      preferred: 'istio',
      active: 'hubble',
    });
    expect(await (await agent.post('/api/traffic/source', { source: 'auto' })).json()).toEqual({
      preferred: null,
      active: 'hubble',
    });
  });

  it('adds injected flows up per pair, ends named after the workloads, with exact counts', async () => {
    const { api, client } = pods;
    const time = Date.now() - 30_000;
    hubble.inject(
      hubbleFlow(client, api, { time, syn: true }),
      hubbleFlow(client, api, { time, http: { type: 'REQUEST', method: 'GET', url: '/orders' } }),
      hubbleFlow(client, api, { time, http: { type: 'RESPONSE', code: 200, latencyMs: 3 } }),
      hubbleFlow(client, api, { time, http: { type: 'REQUEST', method: 'POST', url: '/orders' } }),
      hubbleFlow(client, api, { time, http: { type: 'RESPONSE', code: 500, latencyMs: 9 } }),
      hubbleFlow(api, client, { time, syn: true, port: 9999, verdict: 'DROPPED' }),
      hubbleFlow(api, world('203.0.113.9'), { time, syn: true, port: 443 }),
    );
    const answer = await agent.json<{
      available: boolean;
      source: string;
      windowMs: number;
      pairs: Record<string, unknown>[];
    }>(`/api/traffic/flows?namespace=${ns.name}&since=2m`);
    expect(answer).toMatchObject({ available: true, source: 'hubble', windowMs: 120_000 });
    const byId = Object.fromEntries(answer.pairs.map((p) => [p.id, p]));
    expect(Object.keys(byId).sort()).toEqual(
      [
        `deployment/${ns.name}/api→external/203.0.113.9`,
        `deployment/${ns.name}/api→pod/${ns.name}/client`,
        `pod/${ns.name}/client→deployment/${ns.name}/api`,
      ].sort(),
    );
    expect(byId[`pod/${ns.name}/client→deployment/${ns.name}/api`]).toMatchObject({
      source: { kind: 'Pod', name: 'client', namespace: ns.name, ip: client.status?.podIP },
      destination: { kind: 'Deployment', name: 'api', namespace: ns.name, ip: api.status?.podIP },
      flows: 5,
      connections: 1,
      requests: 2,
      errors: 1,
      errorRate: 0.5,
      requestRate: 0.017,
      verdicts: { forwarded: 5 },
      httpStatus: { '200': 1, '500': 1 },
      avgLatencyMs: 6,
      ports: [{ protocol: 'TCP', port: 8080, flows: 5 }],
    });
    expect(byId[`deployment/${ns.name}/api→pod/${ns.name}/client`]).toMatchObject({
      flows: 1,
      verdicts: { dropped: 1 },
      ports: [{ port: 9999 }],
    });
    expect(byId[`pod/${ns.name}/client→deployment/${ns.name}/api`]).not.toHaveProperty('bytes');
  });

  it('draws the pairs as traffic edges in the topology traffic view', async () => {
    const graph = await agent.json<{
      edges: { type: string; source: string; target: string; data?: { flows: number } }[];
      nodes: { id: string }[];
    }>(`/api/topology?namespaces=${ns.name}&view=traffic`);
    const traffic = graph.edges.filter((e) => e.type === 'traffic');
    expect(traffic).toContainEqual(
      expect.objectContaining({
        source: `pod/${ns.name}/client`,
        target: `deployment/${ns.name}/api`,
        data: expect.objectContaining({ flows: 5, requests: 2, errors: 1 }),
      }),
    );
    expect(graph.nodes.map((n) => n.id)).toContain('external/203.0.113.9');
    const plain = await agent.json<{ edges: { type: string }[] }>(`/api/topology?namespaces=${ns.name}`);
    expect(plain.edges.some((e) => e.type === 'traffic')).toBe(false);
    const without = await bare.json<{ warnings: string[] }>(
      `/api/topology?namespaces=${ns.name}&view=traffic`,
    );
    expect(without.warnings.some((w) => w.startsWith('traffic: '))).toBe(true);
  });

  it('answers available:false, not a 500, once the relay is gone', async () => {
    const gone = await startTestAgent({ config: { hubbleAddress: `127.0.0.1:${await freePort()}` } });
    try {
      const flows = await gone.request('/api/traffic/flows');
      expect(flows.status).toBe(200);
      expect(await flows.json()).toMatchObject({
        available: false,
        reason: expect.stringContaining('no Hubble relay answered'),
      });
    } finally {
      await gone.close();
    }
  });
});
