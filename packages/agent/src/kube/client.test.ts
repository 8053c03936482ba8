import { once } from 'node:events';
import {
  constants,
  createSecureServer,
  type Http2SecureServer,
  type ServerHttp2Session,
  type ServerHttp2Stream,
} from 'node:http2';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type CertFactory, certFactory, type TestCert } from '../testing/certs.ts';
import { brokenConnection, KubeClient } from './client.ts';
import { testTarget } from './fake-api-server.ts';

// A real HTTP/2 server on loopback that can break a session the way the API server cannot be made to on demand.
let factory: CertFactory;
let ca: TestCert;
let server: TestCert;

beforeAll(() => {
  factory = certFactory();
  ca = factory.make({ cn: 'test-ca', ca: true });
  server = factory.make({ cn: '127.0.0.1', sans: ['IP:127.0.0.1'], issuer: ca });
});
afterAll(() => factory.dispose());

type Answer = (stream: ServerHttp2Stream, session: number) => void;
const ok: Answer = (stream) => {
  stream.respond({ ':status': 200, 'content-type': 'application/json' });
  stream.end('{"gitVersion":"v1.36.3"}');
};

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** Starts the server; `answer` gets each stream with the number of the session (connection) it came on, from 1. */
async function h2(answer: Answer): Promise<{ client: KubeClient; sessions: () => number }> {
  const listening: Http2SecureServer = createSecureServer({ cert: server.cert, key: server.key });
  let sessions = 0;
  const open = new Set<ServerHttp2Session>();
  listening.on('session', (session) => {
    open.add(session);
    const number = ++sessions;
    session.on('stream', (stream) => {
      // A stream the test resets errors on this side too; that is the point, not a failure.
      stream.on('error', () => undefined);
      answer(stream, number);
    });
  });
  listening.listen(0, '127.0.0.1');
  await once(listening, 'listening');
  const { port } = listening.address() as { port: number };
  const client = new KubeClient(testTarget(new URL(`https://127.0.0.1:${port}`), ca.cert));
  close = async () => {
    await client.close();
    const closed = once(listening, 'close');
    listening.close();
    for (const session of open) session.destroy();
    await closed;
  };
  return { client, sessions: () => sessions };
}

describe('the Kubernetes client on a broken connection', () => {
  it('tells connection failures from server failures', () => {
    expect(brokenConnection({ code: 'ERR_HTTP2_STREAM_ERROR' })).toBe(true);
    expect(brokenConnection({ code: 'UND_ERR_SOCKET' })).toBe(true);
    expect(brokenConnection({ message: 'fetch failed', cause: { code: 'ERR_HTTP2_GOAWAY_SESSION' } })).toBe(
      true,
    );
    expect(brokenConnection({ code: 'ECONNREFUSED' })).toBe(false);
    expect(brokenConnection({ code: 'UND_ERR_HEADERS_TIMEOUT' })).toBe(false);
    expect(brokenConnection(new Error('self-signed certificate'))).toBe(false);
  });

  it('replaces its connections after an HTTP/2 stream error, so the next request goes over a new one', async () => {
    const { client, sessions } = await h2((stream, session) => {
      if (session === 1) stream.close(constants.NGHTTP2_INTERNAL_ERROR);
      else ok(stream, session);
    });
    await expect(client.request({ path: '/version' })).rejects.toMatchObject({ code: 'cluster_unreachable' });
    expect(client.generation).toBe(1);
    await expect(client.request({ path: '/version' })).resolves.toEqual({ gitVersion: 'v1.36.3' });
    expect(sessions()).toBe(2);
  });

  it('replaces a connection that stopped answering once a new one answers', async () => {
    const { client, sessions } = await h2((stream, session) => {
      // Session 1 takes every stream and never answers (a half-open connection looks the same from here).
      if (session !== 1) ok(stream, session);
    });
    await expect(client.request({ path: '/version', timeoutMs: 200 })).rejects.toMatchObject({
      code: 'cluster_timeout',
    });
    expect(await client.reconnect('/version', 1_000)).toBe(true);
    expect(client.generation).toBe(1);
    await expect(client.request({ path: '/version', timeoutMs: 1_000 })).resolves.toEqual({
      gitVersion: 'v1.36.3',
    });
    expect(sessions()).toBe(2);
  });

  it('keeps its connections when a new one does not answer either (a slow server, not a broken connection)', async () => {
    const { client } = await h2(() => undefined);
    await expect(client.request({ path: '/version', timeoutMs: 200 })).rejects.toMatchObject({
      code: 'cluster_timeout',
    });
    expect(await client.reconnect('/version', 200)).toBe(false);
    expect(client.generation).toBe(0);
  });
});
