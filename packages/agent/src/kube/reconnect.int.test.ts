import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverLogger } from '@binnacle/common/server';
import {
  type ApiServerOnly,
  type ApiServerProxy,
  apiServerOnlyUp,
  startApiServerProxy,
  testCluster,
  waitUntil,
} from '@binnacle/testkit';
import { CoordinationV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../testing/index.ts';

interface Health {
  status: string;
  connection: { state: string };
}

const cluster = testCluster();
const opened: { close(): Promise<void> }[] = [];

afterAll(async () => {
  for (const thing of opened.reverse()) await thing.close();
});

const configMap = (core: CoreV1Api, namespace: string, name: string) =>
  core.createNamespacedConfigMap({ namespace, body: { metadata: { name }, data: { a: '1' } } });

/** Waits until the agent says it is connected and `read` answers 200; resolves with how long that took. */
async function recovered(agent: TestAgent, what: string, read: string, timeoutMs: number): Promise<number> {
  const started = Date.now();
  await waitUntil(
    what,
    async () => {
      const health = await agent.json<Health>('/api/health');
      return health.connection.state === 'connected' && (await agent.request(read)).status === 200;
    },
    { timeoutMs, intervalMs: 100 },
  );
  return Date.now() - started;
}

describe('the agent replaces a connection that stopped answering', () => {
  it('is connected again, with watches and live reads through new connections, within 10 s of the freeze', async () => {
    // Only this agent's connections go through the proxy: the shared API server itself is untouched.
    const proxy: ApiServerProxy = await startApiServerProxy();
    opened.push(proxy);
    const ns = await cluster.namespace('reconnect');
    opened.push({ close: ns.remove });
    const agent = await startTestAgent({ config: { kubeconfig: proxy.kubeconfigPath } });
    opened.push(agent);
    const kc = cluster.kubeConfig();
    const core = kc.makeApiClient(CoreV1Api);
    const leases = kc.makeApiClient(CoordinationV1Api);
    expect((await agent.json<Health>('/api/health')).connection.state).toBe('connected');

    // The HTTP/2 session the agent holds (and every watch on it) goes silent; the API server still answers.
    expect(proxy.freeze()).toBeGreaterThan(0);
    const frozenAt = Date.now();
    await configMap(core, ns.name, 'after-freeze');
    // Leases are not cached: reading one asks the API server.
    await leases.createNamespacedLease({
      namespace: ns.name,
      body: { metadata: { name: 'live-read' }, spec: { holderIdentity: 'test' } },
    });

    await recovered(
      agent,
      'the agent to see a change made after the freeze',
      `/api/resources/configmaps/${ns.name}/after-freeze`,
      10_000,
    );
    expect((await agent.request(`/api/resources/leases/${ns.name}/live-read`)).status).toBe(200);
    expect(Date.now() - frozenAt).toBeLessThan(10_000);
  });
});

describe('the agent after an API server outage', () => {
  it('is connected again, and its informers watch again, within 5 s of the API server answering', async () => {
    // A private API server: stopping the shared one would disturb the test files running beside this one.
    const dir = await mkdtemp(join(tmpdir(), 'binnacle-outage-'));
    const second: ApiServerOnly = await apiServerOnlyUp(join(dir, 'second'));
    opened.push({ close: second.down });
    const lines: string[] = [];
    const agent = await startTestAgent({
      config: { kubeconfig: second.kubeconfig },
      log: serverLogger('warn', { write: (line: string) => void lines.push(line) }),
    });
    opened.push(agent);
    const configMapFailures = () => lines.filter((line) => line.includes('"informer for configmaps:')).length;
    const kc = new KubeConfig();
    kc.loadFromFile(second.kubeconfig);
    const core = kc.makeApiClient(CoreV1Api);
    await configMap(core, 'default', 'before-outage');
    await recovered(
      agent,
      'the agent to see the first change',
      '/api/resources/configmaps/default/before-outage',
      10_000,
    );

    // Counted from before the stop: the watch it breaks is the first failure, logged as the server goes.
    const failedBefore = configMapFailures();
    await second.stopApiServer();
    await waitUntil(
      'the agent to notice the outage',
      async () => (await agent.json<Health>('/api/health')).connection.state === 'disconnected',
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    expect((await agent.request('/api/resources/configmaps/default/before-outage')).status).toBe(503);
    // The ConfigMaps informer retries on a back-off doubling from about 1 s: after its sixth failure in a row it
    // waits at least 25.6 s (ADR 0020), far past the 5 s the agent may take to be back. About 30 s down.
    await waitUntil(
      'the ConfigMaps informer failing six times in a row',
      () => {
        const failed = configMapFailures() - failedBefore;
        if (failed < 6) throw new Error(`${failed} failures so far`);
        return Promise.resolve(true);
      },
      { timeoutMs: 60_000, intervalMs: 200 },
    );

    await second.startApiServer();
    const back = Date.now();
    await configMap(core, 'default', 'after-outage');
    await recovered(
      agent,
      'the agent to reconnect and see a change made after the outage',
      '/api/resources/configmaps/default/after-outage',
      10_000,
    );
    expect(Date.now() - back).toBeLessThan(5_000);
  }, 120_000);
});
