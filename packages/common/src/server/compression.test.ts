import { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.ts';
import { compressible, negotiateCoding } from './compression.ts';
import { serverLogger } from './logger.ts';

describe('negotiateCoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=1.0, gzip;q=1', 'br'],
    ['gzip;q=0.8, br;q=0.8', 'br'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['identity', 'identity'],
    ['deflate, zstd', 'identity'],
    ['BR;Q=0.9', 'br'],
    ['br;q=2, gzip', 'gzip'],
    ['br;q=abc', 'identity'],
    [['gzip', 'br;q=0.1'], 'gzip'],
  ] as const)('%j → %s', (header, coding) => {
    expect(negotiateCoding(header as string | string[] | undefined)).toBe(coding);
  });
});

describe('compressible', () => {
  it.each([
    ['application/json; charset=utf-8', true],
    ['application/merge-patch+json', true],
    ['application/x-yaml; charset=utf-8', true],
    ['text/html; charset=utf-8', true],
    ['text/markdown', true],
    ['text/javascript; charset=utf-8', true],
    ['image/svg+xml', true],
    ['text/event-stream; charset=utf-8', false],
    ['application/x-tar', false],
    ['application/octet-stream', false],
    ['application/gzip', false],
    ['image/png', false],
    [undefined, false],
  ] as const)('%s → %s', (type, yes) => {
    expect(compressible(type)).toBe(yes);
  });
});

/** A JSON text well over the threshold, whose encoded form is far smaller. */
const big = JSON.stringify({
  items: Array.from({ length: 200 }, (_, i) => ({ name: `pod-${i}`, phase: 'Running' })),
});

describe('the compression step of every app', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createApp({
      logger: serverLogger('silent'),
      openapi: { title: 't', version: '0', description: 't' },
    });
    app.get('/big', (_request, reply) => reply.header('vary', 'Origin').send(JSON.parse(big)));
    app.get('/small', () => ({ ok: true }));
    app.get('/streamed', (_request, reply) =>
      reply.type('application/json').send(Readable.from([big.slice(0, 1000), big.slice(1000)])),
    );
    app.get('/relayed', { config: { compress: false } }, (_request, reply) =>
      reply.type('application/json').send(big),
    );
    app.get('/encoded', (_request, reply) =>
      reply.type('application/json').header('content-encoding', 'gzip').send(Buffer.from('as sent')),
    );
    app.get('/tar', (_request, reply) => reply.type('application/x-tar').send(Buffer.from(big)));
  });
  afterAll(() => app.close());

  const get = (url: string, encoding = 'gzip, br', method: 'GET' | 'HEAD' = 'GET') =>
    app.inject({ method, url, headers: { 'accept-encoding': encoding } });

  it('compresses a JSON answer over 1 KB, keeps its Vary and adds Accept-Encoding to it', async () => {
    const br = await get('/big');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Origin, Accept-Encoding');
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(big);
    const gz = await get('/big', 'gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(big);
    const plain = await get('/big', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(big);
  });

  it('compresses a streamed answer as it streams, without a length', async () => {
    const res = await get('/streamed');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-length']).toBeUndefined();
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(big);
  });

  it('leaves small answers, HEAD, routes configured compress: false, encoded answers and archives as they are', async () => {
    expect((await get('/small')).headers['content-encoding']).toBeUndefined();
    expect((await get('/small')).headers.vary).toBe('Accept-Encoding');
    expect((await get('/big', 'br', 'HEAD')).headers['content-encoding']).toBeUndefined();
    const relayed = await get('/relayed');
    expect([relayed.headers['content-encoding'], relayed.body]).toEqual([undefined, big]);
    const encoded = await get('/encoded');
    expect([encoded.headers['content-encoding'], encoded.body]).toEqual(['gzip', 'as sent']);
    const tar = await get('/tar');
    expect([tar.headers['content-encoding'], tar.headers.vary, tar.body]).toEqual([
      undefined,
      undefined,
      big,
    ]);
  });
});
