import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clusterDown, clusterUp, restartApiServer, waitUntil } from '@binnacle/testkit';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TimelineEvent } from '../../scope/timeline/types.ts';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';

// Its own control plane: restarting the shared one would disturb the tests running beside this one.
const stateDir = await mkdtemp(join(tmpdir(), 'binnacle-restart-'));
let agent: TestAgent;
let core: CoreV1Api;

beforeAll(async () => {
  const state = await clusterUp({ stateDir, nodes: 1 });
  const kc = new KubeConfig();
  kc.loadFromFile(state.kubeconfigs.admin);
  core = kc.makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: 'restart' } } });
  agent = await startTestAgent({ config: { kubeconfig: state.kubeconfigs.admin } });
}, 120_000);

afterAll(async () => {
  await agent?.close();
  await clusterDown({ stateDir });
  await rm(stateDir, { recursive: true, force: true });
});

const changesOf = async (name: string) =>
  (
    await agent.json<{ events: TimelineEvent[] }>(
      `/api/changes?namespace=restart&kind=ConfigMap&name=${name}&preset=all`,
    )
  ).events;
const setData = (name: string, value: string) =>
  core.patchNamespacedConfigMap({
    namespace: 'restart',
    name,
    body: [{ op: 'replace', path: '/data', value: { a: value } }],
  });

describe('the timeline across an API server restart', () => {
  it('records every change made around the restart exactly once', async () => {
    await core.createNamespacedConfigMap({
      namespace: 'restart',
      body: { metadata: { name: 'c1' }, data: { a: '1' } },
    });
    await waitUntil('c1 created on the timeline', async () => (await changesOf('c1')).length === 1, {
      timeoutMs: 10_000,
    });
    await setData('c1', '2');
    await restartApiServer({ stateDir });
    await setData('c1', '3');
    await core.createNamespacedConfigMap({
      namespace: 'restart',
      body: { metadata: { name: 'c2' }, data: { b: '1' } },
    });
    await waitUntil(
      'the changes after the restart on the timeline',
      async () => (await changesOf('c2')).length === 1 && (await changesOf('c1')).length === 3,
      {
        timeoutMs: 60_000,
        intervalMs: 500,
      },
    );
    // Changes after the restart arrived, so any replay of earlier ones (a resumed watch, a relist) has too.
    await agent.agent.ctx.timeline.flush();
    const c1 = (await changesOf('c1')).reverse();
    expect(c1.map((e) => [e.eventType, e.reason])).toEqual([
      ['add', 'Created'],
      ['update', 'Updated'],
      ['update', 'Updated'],
    ]);
    expect(c1.slice(1).map((e) => e.diff?.fields.map((f) => f.path))).toEqual([['data.a'], ['data.a']]);
    expect(await changesOf('c2')).toHaveLength(1);
    const health = await agent.json<{ status: string; connection: { state: string } }>('/api/health');
    expect(health.connection.state).toBe('connected');
  });
});
