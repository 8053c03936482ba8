import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ApiServerOnly, apiServerOnlyUp, openSse, testCluster, waitUntil } from '@binnacle/testkit';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { livenessProbe } from '../../kube/cluster.ts';
import type { ConnectionStatus } from '../../scope/connection.ts';
import { kubeconfigWithContexts, startTestAgent, type TestAgent } from '../../testing/index.ts';

const cluster = testCluster();
const core = cluster.kubeConfig().makeApiClient(CoreV1Api);
const probeInterval = livenessProbe.intervalMs;
let second: ApiServerOnly;
let agent: TestAgent;
let ns: { name: string; remove: () => Promise<void> };

const connection = () => agent.json<ConnectionStatus>('/api/connection');
const currentContext = async () => (await agent.json<{ current: string }>('/api/contexts')).current;

async function waitForState(state: ConnectionStatus['state'], what: string): Promise<ConnectionStatus> {
  let last: ConnectionStatus | undefined;
  await waitUntil(
    what,
    async () => {
      last = await connection();
      return last.state === state && (state !== 'connected' || last.sync.ready);
    },
    { timeoutMs: 45_000, intervalMs: 200 },
  );
  return last as ConnectionStatus;
}

beforeAll(async () => {
  // A lost API server shows within a second or two instead of ten.
  livenessProbe.intervalMs = 500;
  const dir = await mkdtemp(join(tmpdir(), 'binnacle-contexts-'));
  [second, ns] = await Promise.all([apiServerOnlyUp(join(dir, 'second')), cluster.namespace('contexts')]);
  const secondKc = new KubeConfig();
  secondKc.loadFromFile(second.kubeconfig);
  await secondKc.makeApiClient(CoreV1Api).createNamespacedConfigMap({
    namespace: 'default',
    body: { metadata: { name: 'only-in-second' }, data: { cluster: 'second' } },
  });
  await core.createNamespacedPod({
    namespace: ns.name,
    body: {
      metadata: { name: 'web' },
      spec: { containers: [{ name: 'main', image: 'nginx:1.27.3', ports: [{ containerPort: 8080 }] }] },
    },
  });
  const kubeconfig = join(dir, 'kubeconfig');
  await kubeconfigWithContexts(
    kubeconfig,
    { shared: cluster.kubeconfigPath(), second: second.kubeconfig },
    'shared',
  );
  agent = await startTestAgent({ config: { kubeconfig } });
});

afterAll(async () => {
  livenessProbe.intervalMs = probeInterval;
  await Promise.all([agent?.close(), ns?.remove()]);
  await second?.down();
});

describe('contexts', () => {
  it('lists the contexts of the kubeconfig and marks the one served', async () => {
    const contexts = await agent.json<{
      current: string;
      inCluster: boolean;
      items: { name: string; current: boolean }[];
    }>('/api/contexts');
    expect(contexts.current).toBe('shared');
    expect(contexts.inCluster).toBe(false);
    expect(contexts.items.map((c) => [c.name, c.current])).toEqual([
      ['shared', true],
      ['second', false],
    ]);
    expect(await connection()).toMatchObject({
      state: 'connected',
      context: 'shared',
      sync: { ready: true },
    });
  });

  it('answers 404 for a context the kubeconfig does not have, and stays where it was', async () => {
    const res = await agent.post('/api/contexts/nowhere');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      code: 'not_found',
      error: expect.stringContaining('shared, second'),
    });
    expect(await currentContext()).toBe('shared');
  });

  it('switching ends every stream and port-forward with the reason, then serves the other cluster', async () => {
    await waitUntil(
      'pod web Running in the cache',
      async () => {
        const res = await agent.request(`/api/resources/pods/${ns.name}/web`);
        return (
          res.ok &&
          ((await res.json()) as { resource: { status: { phase?: string } } }).resource.status.phase ===
            'Running'
        );
      },
      { timeoutMs: 30_000 },
    );
    const forward = (await (
      await agent.post('/api/portforwards', { namespace: ns.name, pod: 'web', port: 8080 })
    ).json()) as {
      id: string;
      status: string;
    };
    expect(forward.status).toBe('running');
    const stream = await openSse(`${agent.url}/api/events/stream`);
    await stream.next((e) => e.event === 'hello');

    const res = await agent.post('/api/contexts/second');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ state: 'connected', context: 'second', sync: { ready: true } });

    const reason = 'the agent switched to context "second"';
    expect((await stream.next((e) => e.event === 'end', 5_000)).data).toEqual({ reason });
    await waitUntil('the event stream to end', () => Promise.resolve(stream.ended()), { timeoutMs: 5_000 });
    const forwards = await agent.json<{ items: { id: string; status: string; error?: string }[] }>(
      '/api/portforwards',
    );
    expect(forwards.items.find((f) => f.id === forward.id)).toMatchObject({
      status: 'stopped',
      error: reason,
    });
    expect((await agent.json<{ total: number }>('/api/sessions')).total).toBe(0);

    expect(await currentContext()).toBe('second');
    const configMap = await agent.json<{ resource: { data: Record<string, string> } }>(
      '/api/resources/configmaps/default/only-in-second',
    );
    expect(configMap.resource.data).toEqual({ cluster: 'second' });
    expect((await agent.request(`/api/resources/pods/${ns.name}/web`)).status).toBe(404);
  });

  it('reports a cluster lost mid-stream as disconnected, keeps serving its own routes, and reconnects by itself', async () => {
    const stream = await openSse(`${agent.url}/api/events/stream`);
    await stream.next((e) => e.event === 'hello');
    await second.stopApiServer();
    const lost = await waitForState('disconnected', 'the agent to notice the API server is gone');
    expect(lost).toMatchObject({ context: 'second', errorType: 'unreachable', code: 'cluster_unreachable' });
    expect(lost.error).toContain('unreachable');
    const health = await agent.json<{ status: string; connection: { state: string } }>('/api/health');
    expect(health).toMatchObject({ status: 'disconnected', connection: { state: 'disconnected' } });
    expect((await agent.request('/api/contexts')).status).toBe(200);
    expect((await agent.request('/api/config')).status).toBe(200);
    const refused = await agent.request('/api/resources/configmaps/default/only-in-second');
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ code: 'cluster_unreachable' });

    await second.startApiServer();
    await waitForState('connected', 'the agent to reconnect by itself');
    expect(stream.ended()).toBe(false);
    stream.close();
    expect((await agent.request('/api/resources/configmaps/default/only-in-second')).status).toBe(200);
  });

  it('retry connects the current context afresh, ending sessions with the reason', async () => {
    const stream = await openSse(`${agent.url}/api/events/stream`);
    await stream.next((e) => e.event === 'hello');
    const res = await agent.post('/api/connection/retry');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ state: 'connected', context: 'second' });
    expect((await stream.next((e) => e.event === 'end', 5_000)).data).toEqual({
      reason: 'the agent reconnected to context "second"',
    });
  });

  it('switching to an unreachable context answers its error, serves the agent routes, and connects once it is up', async () => {
    expect((await agent.post('/api/contexts/shared')).status).toBe(200);
    await second.stopApiServer();
    const res = await agent.post('/api/contexts/second');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      code: 'cluster_unreachable',
      error: expect.stringMatching(
        /^context "second": the Kubernetes API server at 127\.0\.0\.1:\d+ is unreachable/,
      ),
    });
    expect(await connection()).toMatchObject({
      state: 'disconnected',
      context: 'second',
      errorType: 'unreachable',
    });
    expect((await agent.json<{ status: string }>('/api/health')).status).toBe('disconnected');
    expect(await currentContext()).toBe('second');

    await second.startApiServer();
    await waitForState('connected', 'the agent to connect to the second cluster by itself');
  });
});
