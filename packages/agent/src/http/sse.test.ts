import { once } from 'node:events';
import http2 from 'node:http2';
import { type AddressInfo, Socket } from 'node:net';
import { waitUntil } from '@binnacle/testkit';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SseOptions, SseStream, StreamLimit } from './sse.ts';

/** Any event: these tests are about the queue, not what a route sends. */
type Events = Record<string, unknown>;

let app: FastifyInstance;
beforeEach(() => {
  app = Fastify();
});

/** A stream whose reader is a raw socket that reads nothing until resumed. */
async function stalled(options: SseOptions): Promise<{ stream: SseStream<Events>; socket: Socket }> {
  const opened = new Promise<SseStream<Events>>((resolveOpened) => {
    app.get('/stream', (_request, reply) => resolveOpened(new SseStream<Events>(reply, options)));
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const socket = new Socket();
  await new Promise<void>((r) => socket.connect(port, '127.0.0.1', r));
  socket.write('GET /stream HTTP/1.1\r\nHost: x\r\n\r\n');
  socket.pause();
  return { stream: await opened, socket };
}

const big = { blob: 'x'.repeat(64 * 1024) };
afterEach(async () => {
  await app.close();
});

describe('SseStream', () => {
  it('opens over HTTP/2 (the hub tunnel hands the agent compatibility requests) without a connection header', async () => {
    const warnings: string[] = [];
    const warned = (warning: Error) => warnings.push(warning.message);
    process.on('warning', warned);
    app.get('/stream', (_request, reply) => {
      new SseStream<Events>(reply, {}).send('hello', { ok: true }, '1');
    });
    await app.ready();
    const server = http2.createServer((request, response) => app.server.emit('request', request, response));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const session = http2.connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    try {
      const stream = session.request({ ':path': '/stream' });
      const [head] = (await once(stream, 'response')) as [Record<string, unknown>];
      const [first] = (await once(stream, 'data')) as [Buffer];
      expect(head[':status']).toBe(200);
      expect(head['content-type']).toMatch(/^text\/event-stream/);
      expect(first.toString()).toContain('event: hello');
      // A dropped connection header is reported on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
      stream.close();
    } finally {
      process.off('warning', warned);
      session.destroy();
      server.close();
    }
  });

  it('cuts loose a reader that stops reading once its queue is full, without blocking the writer', async () => {
    let overflowed = false;
    const { stream, socket } = await stalled({ maxQueued: 50, onOverflow: () => (overflowed = true) });
    // `send` never waits for the reader: this loop runs without yielding, so it ends only because the stream
    // refuses frames once the reader is maxQueued behind (the frame being written plus a full queue).
    let sent = 0;
    while (stream.send('change', big, String(sent))) sent += 1;
    expect(overflowed).toBe(true);
    expect(stream.closed).toBe(true);
    expect(sent).toBeGreaterThanOrEqual(50);
    expect(sent).toBeLessThanOrEqual(51);
    socket.destroy();
  });

  it('tells a producer to pause past pauseAt, and to go on once the reader took every frame', async () => {
    const { stream, socket } = await stalled({ pauseAt: 10 });
    const told: boolean[] = [];
    stream.onBacklog((behind) => told.push(behind));
    for (let i = 0; i < 12; i++) stream.send('log', big);
    expect(told).toEqual([true]);
    socket.resume();
    await waitUntil('the all-clear after the backlog drained', () => Promise.resolve(told.length === 2), {
      timeoutMs: 2_000,
      intervalMs: 10,
    });
    expect(told).toEqual([true, false]);
    expect(stream.closed).toBe(false);
    socket.destroy();
  });

  it('says its last word and closes, without waiting long for a reader that does not read', async () => {
    const { stream, socket } = await stalled({});
    for (let i = 0; i < 20; i++) stream.send('log', big);
    const closed = new Promise<void>((r) => stream.onClose(r));
    stream.finish('the agent shuts down');
    await closed;
    expect(stream.closed).toBe(true);
    socket.destroy();
  });

  it('sends a heartbeat while nothing else is said', async () => {
    let stream: SseStream<Events> | undefined;
    app.get('/stream', (_request, reply) => {
      stream = new SseStream<Events>(reply, { heartbeatMs: 20 });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/stream`);
    const reader = (res.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
    expect((await reader.read()).value).toMatch(/^event: heartbeat\ndata: \{"time":"[^"]+"\}\n\n/);
    stream?.close();
    expect(await reader.read()).toEqual({ done: true, value: undefined });
  });

  it('frames events as id, event and data lines with no-store', async () => {
    app.get('/stream', (_request, reply) => {
      const stream = new SseStream<Events>(reply);
      stream.send('hello', { a: 1 }, 'e:1');
      stream.close();
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/stream`);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).toBe('id: e:1\nevent: hello\ndata: {"a":1}\n\n');
  });
});

describe('StreamLimit', () => {
  it('refuses past the cap with 503 too_many_streams and frees a slot once', () => {
    const limit = new StreamLimit('the log stream', 1);
    const release = limit.acquire();
    expect(() => limit.acquire()).toThrow(
      expect.objectContaining({
        code: 'too_many_streams',
        status: 503,
        message: 'the log stream already has 1 clients; retry later',
      }),
    );
    release();
    release();
    expect(limit.open).toBe(0);
    limit.acquire();
    expect(limit.open).toBe(1);
  });
});
