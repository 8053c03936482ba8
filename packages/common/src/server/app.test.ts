import { once } from 'node:events';
import http2 from 'node:http2';
import { type AddressInfo, connect } from 'node:net';
import {
  type FastifyBaseLogger,
  type FastifyInstance,
  errorCodes as fastifyErrorCodes,
  type InjectOptions,
} from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes } from '../errors.ts';
import { createApp } from './app.ts';
import { toAppError } from './error-handler.ts';
import { Duration, Query, TimeOrDuration } from './schemas.ts';

const silent: FastifyBaseLogger = {
  level: 'silent',
  fatal: () => undefined,
  error: () => undefined,
  warn: () => undefined,
  info: () => undefined,
  debug: () => undefined,
  trace: () => undefined,
  silent: () => undefined,
  child: () => silent,
};

let app: FastifyInstance;
beforeAll(async () => {
  app = await createApp({
    logger: silent,
    bodyLimit: 1024,
    openapi: { title: 'test', version: '0', description: 'test' },
  });
  app.get(
    '/items/:name',
    {
      schema: {
        params: Type.Object({ name: Type.String() }),
        querystring: Query({
          limit: Type.Optional(Type.Integer()),
          tags: Type.Optional(Type.Array(Type.String())),
        }),
      },
    },
    (request) => ({ ...(request.params as object), ...(request.query as object) }),
  );
  app.post(
    '/items',
    {
      schema: {
        querystring: Query({}),
        body: Type.Object(
          {
            name: Type.String(),
            count: Type.Optional(Type.Integer()),
            tags: Type.Optional(Type.Array(Type.String())),
          },
          { additionalProperties: false },
        ),
      },
    },
    (request) => request.body,
  );
  app.get('/files/*', { schema: { querystring: Query({}) } }, () => ({}));
  // Routes in an encapsulated plugin, as the hub's tunnel registers them.
  await app.register((scope, _options, done) => {
    scope.put('/scoped/:id', { schema: { querystring: Query({}) } }, () => ({}));
    done();
  });
  app.get(
    '/changes',
    {
      schema: {
        querystring: Query({ timeout: Type.Optional(Duration()), since: Type.Optional(TimeOrDuration()) }),
      },
    },
    (request) => request.query,
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app?.close();
});

const long = (length: number) => 'a'.repeat(length);
const json = { 'content-type': 'application/json' };

/** What the server answers to bytes sent as they are, past any client's own checks. */
function rawRequest(request: string): Promise<string> {
  const { port } = app.server.address() as { port: number };
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString();
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('errors fastify raises itself leave in the {error, code} shape with our codes', () => {
  const cases: [string, InjectOptions, number, string][] = [
    ['a path segment over the limit', { url: `/items/${long(254)}` }, 414, 'uri_too_long'],
    ['a stray %-escape in the path', { url: '/items/%zz' }, 400, 'invalid_request'],
    [
      'a body type the route does not parse',
      { method: 'POST', url: '/items', headers: { 'content-type': 'image/png' }, payload: 'x' },
      415,
      'unsupported_media_type',
    ],
    [
      'a body over the limit',
      { method: 'POST', url: '/items', headers: json, payload: JSON.stringify({ name: long(2048) }) },
      413,
      'payload_too_large',
    ],
    [
      'malformed JSON',
      { method: 'POST', url: '/items', headers: json, payload: '{"name":' },
      400,
      'invalid_request',
    ],
    [
      'an empty JSON body',
      { method: 'POST', url: '/items', headers: json, payload: '' },
      400,
      'invalid_request',
    ],
    [
      'a body that fails its schema',
      { method: 'POST', url: '/items', headers: json, payload: '{"name":1,"x":2}' },
      400,
      'invalid_request',
    ],
    ['an unknown query parameter', { url: '/items/a?x=1' }, 400, 'invalid_request'],
    ['an unknown path', { url: '/nowhere' }, 404, 'route_not_found'],
  ];

  it.each(cases)('%s', async (_label, request, status, code) => {
    const res = await app.inject(request);
    expect(res.statusCode).toBe(status);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).not.toContain('FST_');
    expect(res.json()).toEqual({ error: expect.any(String), code });
  });

  it('lets a path segment as long as the longest Kubernetes name through', async () => {
    const res = await app.inject({ url: `/items/${long(253)}` });
    expect(res.json()).toEqual({ name: long(253) });
  });

  it.each([
    [
      'headers over the limit',
      `GET /items/a HTTP/1.1\r\nHost: x\r\nX-Big: ${long(20_000)}\r\n\r\n`,
      431,
      'headers_too_large',
    ],
    [
      'a malformed header line',
      'GET /items/a HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n',
      400,
      'invalid_request',
    ],
    ['a malformed request line', 'NOT HTTP\r\n\r\n', 400, 'invalid_request'],
    [
      'a method the parser does not know, on a known path',
      'FOO /items/a HTTP/1.1\r\nHost: x\r\n\r\n',
      501,
      'method_not_implemented',
    ],
    [
      'a method the parser does not know, on an unknown path',
      'FOO /nowhere HTTP/1.1\r\nHost: x\r\n\r\n',
      501,
      'method_not_implemented',
    ],
  ])('answers HTTP the parser refuses (%s) in the same shape', async (_label, request, status, code) => {
    const answer = await rawRequest(request);
    const [head = '', body = ''] = answer.split('\r\n\r\n');
    expect(head).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
    expect(head).toMatch(/\r\nCache-Control: no-store\r\n/i);
    expect(JSON.parse(body)).toEqual({ error: expect.any(String), code });
  });

  it('maps every error fastify defines to a code of ours with the same status class', () => {
    for (const [name, FastifyErrorType] of Object.entries(fastifyErrorCodes)) {
      const error = new FastifyErrorType('a', 'b', 'c');
      const answer = toAppError(error);
      expect(Object.keys(errorCodes), name).toContain(answer.code);
      const status = error.statusCode ?? 500;
      expect(answer.status, name).toBe(Math.min(status, 500));
      expect(JSON.stringify(answer.toBody()), name).not.toContain('FST_');
    }
  });
});

describe('a known path with a method it does not declare', () => {
  it.each([
    ['DELETE', '/items/a', 'GET, HEAD'],
    ['PUT', '/items/', 'POST'],
    ['POST', '/api/openapi.json', 'GET, HEAD'],
    ['PATCH', '/files/a/b.txt', 'GET, HEAD'],
    ['GET', '/scoped/1', 'PUT'],
  ])('answers %s %s with 405 method_not_allowed and Allow: %s', async (method, url, allow) => {
    const res = await app.inject({ method: method as 'GET', url });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe(allow);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({
      error: `${method} is not allowed on ${url}; use ${allow}`,
      code: 'method_not_allowed',
    });
  });

  // Fastify reads the body of a method that has one (QUERY, PROPFIND …) before it looks for a route: a QUERY
  // without Content-Type was 400, a body it cannot parse 400 or 415, on a path that takes no such method.
  it.each([
    ['QUERY without Content-Type', 'QUERY /items/a HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n'],
    [
      'QUERY with a JSON body',
      'QUERY /items/a HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
    ],
    ['PROPFIND', 'PROPFIND /items/a HTTP/1.1\r\nHost: x\r\n\r\n'],
    [
      'PUT with a body of a type nothing parses',
      'PUT /items/a HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\nContent-Length: 1\r\n\r\nx',
    ],
  ])(
    'answers a method the router knows but the path does not take (%s) 405 with Allow',
    async (_label, request) => {
      const [head = '', body = ''] = (
        await rawRequest(request.replace('\r\nHost', '\r\nConnection: close\r\nHost'))
      ).split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1.1 405 /);
      expect(head).toMatch(/\r\nAllow: GET, HEAD\r\n/i);
      expect(JSON.parse(body)).toEqual({
        error: expect.stringContaining('is not allowed on /items/a'),
        code: 'method_not_allowed',
      });
    },
  );

  it.each([
    ['QUERY', 'QUERY /nowhere HTTP/1.1\r\nConnection: close\r\nHost: x\r\nContent-Length: 0\r\n\r\n'],
    ['PROPFIND', 'PROPFIND /nowhere HTTP/1.1\r\nConnection: close\r\nHost: x\r\n\r\n'],
    [
      'POST with malformed JSON',
      'POST /nowhere HTTP/1.1\r\nConnection: close\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1\r\n\r\n{',
    ],
  ])('answers any method the router knows on a path no route declares (%s) 404', async (_label, request) => {
    const [head = '', body = ''] = (await rawRequest(request)).split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1.1 404 /);
    expect(JSON.parse(body)).toMatchObject({ code: 'route_not_found' });
  });

  it('keeps 404 route_not_found for a path no route declares', async () => {
    const res = await app.inject({ method: 'DELETE', url: '/items/a/b?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.headers.allow).toBeUndefined();
    expect(res.json()).toEqual({ error: 'no route for DELETE /items/a/b', code: 'route_not_found' });
  });
});

describe("the web UI's page for other paths", () => {
  let withPage: FastifyInstance;
  beforeAll(async () => {
    withPage = await createApp({
      logger: silent,
      openapi: { title: 'test', version: '0', description: 'test' },
      page: async (_request, reply) => reply.type('text/html').send('<!doctype html>'),
    });
    withPage.post('/auth/hook', { schema: { querystring: Query({}) } }, () => ({ ok: true }));
    await withPage.ready();
  });
  afterAll(() => withPage.close());

  it('answers a deep link with the page', async () => {
    const res = await withPage.inject({ method: 'GET', url: '/resources/pods' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('<!doctype html>');
  });

  it('answers a GET on a path a route serves with another method 405, never with the page', async () => {
    const res = await withPage.inject({ method: 'GET', url: '/auth/hook' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.json()).toMatchObject({ code: 'method_not_allowed' });
  });
});

describe('input repeated in an error message', () => {
  const lengthOf = (res: { json: () => { error: string } }) => res.json().error.length;

  it.each([
    ['a 5 KB path no route serves', { url: `/${'ab/'.repeat(1700)}` }, 404, 'no route for GET /ab/ab/'],
    [
      'a 5 KB unknown query parameter name',
      { url: `/items/a?${long(5000)}=1` },
      400,
      'unknown query parameter',
    ],
    ['a 5 KB duration', { url: `/changes?timeout=${long(5000)}` }, 400, 'query parameter "timeout"'],
    [
      'a 5 KB path on a method it does not take',
      { method: 'DELETE', url: `/files/${long(5000)}` },
      405,
      'DELETE',
    ],
  ] as const)(
    "names at most %s's first 100 characters and its length",
    async (_label, request, status, start) => {
      const res = await app.inject(request as InjectOptions);
      expect(res.statusCode).toBe(status);
      expect(res.json().error).toContain(start);
      expect(res.json().error).toMatch(/… \(\d+ characters\)/);
      expect(lengthOf(res)).toBeLessThan(250);
    },
  );

  it('repeats short input whole', async () => {
    const res = await app.inject({ url: '/nowhere/at/all' });
    expect(res.json().error).toBe('no route for GET /nowhere/at/all');
  });
});

describe('types of input', () => {
  it('coerces query parameters, which arrive as text', async () => {
    const res = await app.inject({ url: '/items/a?limit=5&tags=x' });
    expect(res.json()).toEqual({ name: 'a', limit: 5, tags: ['x'] });
  });

  it.each([
    [{ name: 'a', count: '3' }, 'body field "count" must be integer'],
    [{ name: 'a', tags: [false] }, 'body field "tags.0" must be string'],
    [{ name: 'a', tags: 'x' }, 'body field "tags" must be array'],
    [{ name: 5 }, 'body field "name" must be string'],
  ])('takes a JSON body as typed: %j is refused', async (payload, error) => {
    const res = await app.inject({ method: 'POST', url: '/items', payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error, code: 'invalid_request' });
  });

  it('accepts a body of the right types as sent', async () => {
    const payload = { name: 'a', count: 3, tags: ['x'] };
    expect((await app.inject({ method: 'POST', url: '/items', payload })).json()).toEqual(payload);
  });
});

describe('durations and times in a query', () => {
  it('takes what the parsers take', async () => {
    const res = await app.inject({ url: '/changes?timeout=1h30m&since=2026-11-20T10:00:00Z' });
    expect(res.json()).toEqual({ timeout: '1h30m', since: '2026-11-20T10:00:00Z' });
  });

  it.each([
    [
      'timeout=7d',
      'query parameter "timeout": "7d" is not a duration like 168h, 20m, 90s or 1h30m (days are not accepted: write 168h)',
    ],
    [
      'since=2026-11-20',
      'query parameter "since": "2026-11-20" is not an RFC 3339 time like 2026-11-20T10:00:00Z',
    ],
    [
      'since=soon',
      'query parameter "since": "soon" is not a duration like 168h, 20m, 90s or 1h30m, or an RFC 3339 time',
    ],
  ])('refuses %s in the words of the parser', async (query, error) => {
    const res = await app.inject({ url: `/changes?${query}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error, code: 'invalid_request' });
  });
});

describe('JSON bodies', () => {
  const post = (payload: string | Buffer) =>
    app.inject({ method: 'POST', url: '/items', headers: json, payload });

  it('refuses nesting deeper than 200 levels before parsing it', async () => {
    const res = await post(`${'['.repeat(201)}${']'.repeat(201)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'the JSON body nests deeper than 200 levels',
      code: 'invalid_request',
    });
    // 200 levels are parsed, and answered by the route's schema.
    const parsed = await post(`{"name":"a","tags":${'['.repeat(199)}${']'.repeat(199)}}`);
    expect(parsed.json()).toEqual({ error: 'body field "tags.0" must be string', code: 'invalid_request' });
  });

  it('counts no bracket inside a string', async () => {
    const name = `[{\\"${'['.repeat(300)}`;
    const res = await post(`{"name":"${name}"}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ name: `[{"${'['.repeat(300)}` });
  });

  it('refuses bytes that are not UTF-8, and keeps those that are', async () => {
    const res = await post(
      Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'the JSON body is not valid UTF-8', code: 'invalid_request' });
    expect((await post(Buffer.from('{"name":"café ☕"}'))).json()).toEqual({ name: 'café ☕' });
  });

  it("keeps fastify's refusal of a prototype-poisoning body", async () => {
    const res = await post('{"name":"a","__proto__":{"admin":true}}');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_request' });
  });
});

describe('an answer going out while the app closes', () => {
  it('names no connection header over HTTP/2 (the agent tunnel, ADR 0111)', async () => {
    const closing = await createApp({
      logger: silent,
      openapi: { title: 'test', version: '0', description: 'test' },
    });
    const warnings: string[] = [];
    const warned = (warning: Error) => warnings.push(warning.message);
    process.on('warning', warned);
    let entered: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    closing.get('/held', { schema: { querystring: Query({}) } }, async () => {
      entered();
      await held;
      return { ok: true };
    });
    // After createApp's own: the app counts as closing once this runs.
    let preClosed: () => void = () => undefined;
    const closingNow = new Promise<void>((resolve) => {
      preClosed = resolve;
    });
    closing.addHook('preClose', (done) => {
      preClosed();
      done();
    });
    await closing.ready();
    const server = http2.createServer((request, response) =>
      closing.server.emit('request', request, response),
    );
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const session = http2.connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    try {
      const stream = session.request({ ':path': '/held' });
      stream.resume();
      await arrived;
      const closed = closing.close();
      await closingNow;
      release();
      const [head] = (await once(stream, 'response')) as [Record<string, unknown>];
      await closed;
      await new Promise((resolve) => setImmediate(resolve));
      expect(head[':status']).toBe(200);
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', warned);
      session.destroy();
      server.close();
    }
  });
});
