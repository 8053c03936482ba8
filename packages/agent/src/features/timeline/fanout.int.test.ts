import { Socket } from 'node:net';
import { openSse, type SseClient, testCluster, waitUntil } from '@binnacle/testkit';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TimelineEvent } from '../../scope/timeline/types.ts';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';

const readers = 100;
const background = 200;
/** Only catches a hang: how fast a change reaches 100 readers is measured in bench/ (topology-sse). */
const hangBoundMs = 30_000;

const cluster = testCluster();
const core = cluster.kubeConfig().makeApiClient(CoreV1Api);
let agent: TestAgent;
let ns: { name: string; remove: () => Promise<void> };
const clients: SseClient[] = [];
let stalled: Socket;

beforeAll(async () => {
  [agent, ns] = await Promise.all([startTestAgent(), cluster.namespace('fanout')]);
});
afterAll(async () => {
  for (const c of clients) c.close();
  stalled?.destroy();
  await Promise.all([agent?.close(), ns?.remove()]);
});

describe('SSE fan-out', () => {
  it(`delivers every change to ${readers} readers, in order, while one client never reads`, async () => {
    // The client that never reads: it asks for every namespace, then never takes a byte off its socket.
    const { port } = new URL(agent.url);
    stalled = new Socket();
    await new Promise<void>((resolveConnect) => stalled.connect(Number(port), '127.0.0.1', resolveConnect));
    stalled.write(
      'GET /api/events/stream?preset=all HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n',
    );
    stalled.pause();

    for (let i = 0; i < readers; i += 1)
      clients.push(await openSse(`${agent.url}/api/events/stream?namespaces=${ns.name}&preset=all`));
    await Promise.all(clients.map((c) => c.next((e) => e.event === 'hello')));
    await waitUntil(
      `${readers + 1} event streams open`,
      async () =>
        (await agent.json<{ sessions: { events: number } }>('/api/debug/events')).sessions.events ===
        readers + 1,
      { timeoutMs: 10_000 },
    );

    // Traffic, so the stalled client's socket and queue fill while the readers keep reading.
    for (let i = 0; i < background; i += 20) {
      await Promise.all(
        Array.from({ length: 20 }, (_, j) =>
          core.createNamespacedConfigMap({
            namespace: ns.name,
            body: { metadata: { name: `load-${i + j}` }, data: { blob: 'x'.repeat(4096) } },
          }),
        ),
      );
    }
    await core.createNamespacedConfigMap({
      namespace: ns.name,
      body: { metadata: { name: 'marker' }, data: {} },
    });
    const isMarker = (e: { event: string; data: unknown }) =>
      e.event === 'change' && (e.data as TimelineEvent).name === 'marker';
    // Every reader gets the marker although the stalled client still has not read: nobody waited for it.
    await Promise.all(clients.map((c) => c.next(isMarker, hangBoundMs)));
    // Every reader saw every background change once, in order.
    for (const client of clients) {
      const created = client.events
        .map((e) => e.data as TimelineEvent)
        .filter((e) => e?.reason === 'Created' && /^(load-\d+|marker)$/.test(e.name));
      expect(created).toHaveLength(background + 1);
      expect(new Set(created.map((e) => e.name)).size).toBe(background + 1);
      const seqs = created.map((e) => e.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    }
  });
});
