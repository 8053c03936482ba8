import { join } from 'node:path';
import { openSse, type SseClient, testCluster, waitUntil } from '@binnacle/testkit';
import { CoreV1Api } from '@kubernetes/client-node';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TimelineEvent } from '../../scope/timeline/types.ts';
import type { TimelineWrites } from '../../scope/timeline/writer.ts';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';

const cluster = testCluster();
const core = cluster.kubeConfig().makeApiClient(CoreV1Api);
let agent: TestAgent;
let ns: { name: string; remove: () => Promise<void> };
const streams: SseClient[] = [];
let other: Database.Database | undefined;

interface Health {
  status: string;
  timeline: { store: string } & TimelineWrites;
}

beforeAll(async () => {
  [agent, ns] = await Promise.all([
    startTestAgent({ config: { timelineStorage: 'sqlite' } }),
    cluster.namespace('outage'),
  ]);
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  other?.close();
  await Promise.all([agent?.close(), ns?.remove()]);
});

const names = ['during-0', 'during-1', 'during-2'];
const storedChanges = async () =>
  (
    await agent.json<{ events: TimelineEvent[] }>(
      `/api/changes?namespace=${ns.name}&kind=ConfigMap&preset=all`,
    )
  ).events;
const changesIn = (stream: SseClient) =>
  stream.events
    .filter((e) => e.event === 'change')
    .map((e) => ({ id: e.id, event: e.data as TimelineEvent }));

describe('a timeline store that refuses writes', () => {
  it('streams changes at once, names the failure in /api/health, and stores them once it accepts', async () => {
    const stream = await openSse(`${agent.url}/api/events/stream?namespaces=${ns.name}&preset=all`);
    streams.push(stream);
    const hello = await stream.next((e) => e.event === 'hello');

    // Another connection to the agent's database makes it refuse every insert, as a full disk would.
    other = new Database(join(agent.dataDir, 'timeline.db'));
    other.exec(
      "create trigger refuse before insert on timeline_events begin select raise(abort, 'the disk refuses writes'); end",
    );
    for (const name of names)
      await core.createNamespacedConfigMap({ namespace: ns.name, body: { metadata: { name } } });

    // Live subscribers have every change while the store refuses it.
    await waitUntil(
      'the changes on the stream',
      () => Promise.resolve(names.every((name) => changesIn(stream).some((c) => c.event.name === name))),
      { timeoutMs: 15_000 },
    );
    const streamed = changesIn(stream).filter((c) => names.includes(c.event.name));
    const health = await agent.json<Health>('/api/health');
    expect(health).toMatchObject({
      status: 'degraded',
      timeline: { store: 'sqlite', state: 'failing', error: 'the disk refuses writes', unstored: 0 },
    });
    expect(health.timeline.backlog).toBeGreaterThanOrEqual(names.length);
    expect((await storedChanges()).filter((e) => names.includes(e.name))).toEqual([]);

    // A client that reconnects meanwhile gets them from its cursor, under the same ids.
    const resumed = await openSse(`${agent.url}/api/events/stream?namespaces=${ns.name}&preset=all`, {
      'last-event-id': hello.id ?? '',
    });
    streams.push(resumed);
    await waitUntil('the replay', () => Promise.resolve(changesIn(resumed).length >= names.length), {
      timeoutMs: 10_000,
    });
    expect(changesIn(resumed).map((c) => c.id)).toEqual(streamed.map((c) => c.id));

    // Four attempts on the probe schedule (about 0.5 s, 1 s, 2 s apart): the refusal lasts about 3 s.
    await waitUntil(
      'three retries refused',
      async () => (await agent.json<Health>('/api/health')).timeline.attempts >= 4,
      { timeoutMs: 15_000 },
    );
    other.exec('drop trigger refuse');
    await waitUntil(
      'the store to recover',
      async () => (await agent.json<Health>('/api/health')).timeline.state === 'ok',
      { timeoutMs: 15_000 },
    );
    const after = await agent.json<Health>('/api/health');
    expect(after).toMatchObject({ status: 'healthy', timeline: { backlog: 0, unstored: 0 } });
    expect(after.timeline.storeErrors).toBeGreaterThanOrEqual(2);
    const stored = (await storedChanges()).filter((e) => names.includes(e.name));
    // Stored under the seqs the subscribers saw, nothing streamed twice.
    expect(stored.map((e) => [e.seq, e.name]).sort()).toEqual(
      streamed.map((c) => [c.event.seq, c.event.name]).sort(),
    );
    expect(changesIn(stream).filter((c) => names.includes(c.event.name))).toHaveLength(streamed.length);
  });
});
