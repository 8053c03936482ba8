import { registerErrorHandling } from '@binnacle/common/server';
import { waitUntil } from '@binnacle/testkit';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionRegistry } from './sessions.ts';
import type { SseStream } from './sse.ts';

type Events = Record<string, unknown>;

import { type FanoutOptions, SseFanout } from './sse-fanout.ts';

let app: FastifyInstance;
let sessions: SessionRegistry;
let base: string;
let idle: number;
let served: SseFanout<Events, { stream: SseStream<Events> }> | undefined;

/** An app with one stream route served by a fanout of `options`; the subscriber is the stream alone. */
async function serve(
  options: Partial<FanoutOptions> = {},
): Promise<SseFanout<Events, { stream: SseStream<Events> }>> {
  const fanout = new SseFanout<Events, { stream: SseStream<Events> }>(sessions, {
    label: 'the test stream',
    max: 5,
    kind: 'logs',
    onIdle: () => (idle += 1),
    ...options,
  });
  served = fanout;
  app.get<{ Querystring: { target: string } }>('/stream', (request, reply) => {
    fanout.open(reply, request.query.target, (stream) => ({ stream })).stream.send('hello', {});
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  return fanout;
}

/** Opens a stream and reads its first frame (the route's `hello`), so it is open on the server. */
async function open(target: string, signal?: AbortSignal): Promise<ReadableStreamDefaultReader<string>> {
  const res = await fetch(`${base}/stream?target=${target}`, { signal });
  expect(res.status).toBe(200);
  const reader = (res.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
  expect((await reader.read()).value).toBe('event: hello\ndata: {}\n\n');
  return reader;
}

async function rest(reader: ReadableStreamDefaultReader<string>): Promise<string> {
  let text = '';
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += chunk.value;
  return text;
}

/** The fan-out holding `streams` streams; the 2 s bound only catches a hang. */
const holding = (fanout: { size: number }, streams: number) =>
  waitUntil(`the fan-out holding ${streams} streams`, () => Promise.resolve(fanout.size === streams), {
    timeoutMs: 2_000,
    intervalMs: 10,
  });

beforeEach(() => {
  // Streams the client cancelled leave kept-alive sockets behind; the test need not wait for them.
  app = Fastify({ forceCloseConnections: true });
  registerErrorHandling(app);
  sessions = new SessionRegistry();
  idle = 0;
});
afterEach(async () => {
  served?.close();
  await app.close();
});

describe('SseFanout', () => {
  it('refuses the stream past the cap with a plain 503 too_many_streams, before it starts; a closed one frees its slot', async () => {
    const fanout = await serve({ max: 1 });
    const first = new AbortController();
    await open('a', first.signal);
    const refused = await fetch(`${base}/stream?target=b`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toEqual({
      error: 'the test stream already has 1 clients; retry later',
      code: 'too_many_streams',
    });
    expect(sessions.list()).toHaveLength(1);
    first.abort();
    await holding(fanout, 0);
    await open('c');
  });

  it('lists each stream as a session until it closes; ending the session says why in a last `end`', async () => {
    const fanout = await serve();
    const reader = await open('shop/web');
    expect(sessions.list()).toEqual([expect.objectContaining({ kind: 'logs', target: 'shop/web' })]);
    sessions.closeAll('the agent shuts down');
    expect(await rest(reader)).toBe('event: end\ndata: {"reason":"the agent shuts down"}\n\n');
    expect(fanout.size).toBe(0);
    expect(sessions.list()).toEqual([]);
  });

  it('ends a stream that reached its total duration with `end`', async () => {
    await serve({ maxDurationMs: 360 });
    const reader = await open('a');
    expect(await rest(reader)).toBe(
      'event: end\ndata: {"reason":"streams end after 0.0001h; reconnect to continue"}\n\n',
    );
    expect(sessions.list()).toEqual([]);
  });

  it('fans one producer out to every open stream and says when the last one left', async () => {
    const fanout = await serve();
    const readers = [await open('a'), await open('b')];
    for (const { stream } of fanout) stream.send('change', { seq: 1 });
    for (const reader of readers)
      expect((await reader.read()).value).toBe('event: change\ndata: {"seq":1}\n\n');
    await readers[0]?.cancel();
    await holding(fanout, 1);
    expect(idle).toBe(0);
    await readers[1]?.cancel();
    await holding(fanout, 0);
    expect(idle).toBe(1);
  });

  it('closes every stream when the routes close', async () => {
    const fanout = await serve();
    const readers = [await open('a'), await open('b')];
    fanout.close();
    for (const reader of readers) expect(await rest(reader)).toBe('');
    expect(fanout.size).toBe(0);
    expect(sessions.list()).toEqual([]);
  });
});
