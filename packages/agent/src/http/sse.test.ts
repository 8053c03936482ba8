import { Socket } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SseStream, StreamLimit } from './sse.ts';

let app: FastifyInstance;
beforeEach(() => {
  app = Fastify();
});
afterEach(async () => {
  await app.close();
});

describe('SseStream', () => {
  it('cuts loose a reader that stops reading once its queue is full, without blocking the writer', async () => {
    let overflowed = false;
    const opened = new Promise<SseStream>((resolveOpened) => {
      app.get('/stream', (_request, reply) => {
        resolveOpened(new SseStream(reply, { maxQueued: 50, onOverflow: () => (overflowed = true) }));
      });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const socket = new Socket();
    await new Promise<void>((r) => socket.connect(port, '127.0.0.1', r));
    socket.write('GET /stream HTTP/1.1\r\nHost: x\r\n\r\n');
    socket.pause();
    const stream = await opened;
    const frame = { blob: 'x'.repeat(64 * 1024) };
    // `send` never waits for the reader: this loop runs without yielding, so it ends only because the stream
    // refuses frames once the reader is maxQueued behind (the frame being written plus a full queue).
    let sent = 0;
    while (stream.send('change', frame, String(sent))) sent += 1;
    expect(overflowed).toBe(true);
    expect(stream.closed).toBe(true);
    expect(sent).toBeGreaterThanOrEqual(50);
    expect(sent).toBeLessThanOrEqual(51);
    socket.destroy();
  });

  it('frames events as id, event and data lines with no-store', async () => {
    app.get('/stream', (_request, reply) => {
      const stream = new SseStream(reply);
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
