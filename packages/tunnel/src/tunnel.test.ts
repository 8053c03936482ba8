import { once } from 'node:events';
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { dialHub, type TunnelState } from './dialer.ts';
import {
  acceptTunnel,
  asksForTunnel,
  cameThroughTunnel,
  IdentitySigner,
  identityKey,
  signIdentity,
  type TunnelClient,
  verifyIdentity,
} from './index.ts';

/**
 * A stand-in for the agent's server: JSON, request bodies, a never-ending stream, a WebSocket echo, and `/peer`,
 * which says whether the tunnel handed the request over and which identity header it carried.
 */
let agent: http.Server;
let hub: http.Server;
let hubUrl: string;
const tunnels: TunnelClient[] = [];
let nextTunnel: (client: TunnelClient) => void = () => undefined;
let tunnelUp: Promise<TunnelClient>;
let dialer: { close(): Promise<void> };
const states: string[] = [];
const streamsClosed: string[] = [];
const upgradesThroughTunnel: boolean[] = [];

/** More header fields than either end takes (128). */
const manyHeaders = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`x-field-${i}`, 'v']));

const awaitTunnel = () =>
  new Promise<TunnelClient>((resolve) => {
    nextTunnel = resolve;
  });

beforeAll(async () => {
  agent = http.createServer((request, response) => {
    if (request.url === '/json')
      return response.end(JSON.stringify({ ok: true, path: request.url, via: request.headers['x-test'] }));
    if (request.url === '/echo') return request.pipe(response);
    if (request.url === '/many-headers') return response.writeHead(200, manyHeaders).end();
    if (request.url === '/peer')
      return response.end(
        JSON.stringify({
          tunneled: cameThroughTunnel(request),
          identity: request.headers['x-binnacle-identity'],
        }),
      );
    if (request.url === '/stream') {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const timer = setInterval(() => response.write('data: tick\n\n'), 20);
      request.on('close', () => {
        clearInterval(timer);
        streamsClosed.push('stream');
      });
      return;
    }
    response.writeHead(404).end();
  });
  const echo = new WebSocketServer({ server: agent });
  echo.on('connection', (ws, request) => {
    upgradesThroughTunnel.push(cameThroughTunnel(request));
    ws.on('message', (data) => ws.send(`echo:${data.toString()}`));
  });
  agent.listen(0, '127.0.0.1');
  await once(agent, 'listening');

  hub = http.createServer();
  hub.on('upgrade', (request, socket, head) => {
    if (request.headers.authorization !== 'Bearer bnc_test' || !asksForTunnel(request.headers)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    void acceptTunnel(socket, head, 'cluster-test').then((client) => {
      tunnels.push(client);
      nextTunnel(client);
    });
  });
  hub.listen(0, '127.0.0.1');
  await once(hub, 'listening');
  hubUrl = `http://127.0.0.1:${(hub.address() as AddressInfo).port}`;
  tunnelUp = awaitTunnel();
  dialer = dialHub({
    hubUrl,
    clusterToken: 'bnc_test',
    agentVersion: 'test',
    target: { server: agent },
    onState: (state: TunnelState, detail?: string) => states.push(detail ? `${state} ${detail}` : state),
  });
  await tunnelUp;
});

afterAll(async () => {
  await dialer.close();
  for (const tunnel of tunnels) tunnel.close();
  agent.closeAllConnections();
  hub.closeAllConnections();
  agent.close();
  hub.close();
});

/** The whole body. (Async iteration over an HTTP/2 client stream reports "premature close" after its end.) */
async function collect(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  await once(stream, 'end');
  return text;
}

describe('HTTP/2 on the agent-initiated, upgraded connection', () => {
  it('names the cluster to the agent in its handshake answer', async () => {
    await expect.poll(() => states, { timeout: 5000 }).toContain('connected cluster-test');
  });

  it('carries requests and their headers, and request bodies', async () => {
    const client = await tunnelUp;
    const json = client.request(
      { ':method': 'GET', ':path': '/json', 'x-test': 'through' },
      { endStream: true },
    );
    const [headers] = (await once(json, 'response')) as [Record<string, string>];
    expect(headers[':status']).toBe(200);
    expect(JSON.parse(await collect(json))).toEqual({ ok: true, path: '/json', via: 'through' });
    const post = client.request({ ':method': 'POST', ':path': '/echo' });
    post.end('x'.repeat(200_000));
    expect((await collect(post)).length).toBe(200_000);
  });

  it('multiplexes 50 concurrent requests', async () => {
    const client = await tunnelUp;
    const answers = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const stream = client.request({ ':method': 'GET', ':path': '/json' }, { endStream: true });
        return JSON.parse(await collect(stream)) as { ok: boolean };
      }),
    );
    expect(answers.every((a) => a.ok)).toBe(true);
  });

  it('streams, and cancelling the stream at the hub ends the request at the agent', async () => {
    const client = await tunnelUp;
    const stream = client.request({ ':method': 'GET', ':path': '/stream' }, { endStream: true });
    const [first] = (await once(stream, 'data')) as [Buffer];
    expect(first.toString()).toContain('data: tick');
    stream.close();
    await expect.poll(() => streamsClosed.length, { timeout: 5000 }).toBe(1);
  });

  it('carries a WebSocket upgrade over a CONNECT stream, known to the agent as tunneled', async () => {
    const client = await tunnelUp;
    const raw = client.connect();
    await once(raw, 'response');
    const ws = new WebSocket('ws://agent.tunnel/ws', { createConnection: () => raw as never });
    await once(ws, 'open');
    ws.send('hello');
    const [message] = (await once(ws, 'message')) as [Buffer];
    expect(message.toString()).toBe('echo:hello');
    ws.close();
    // A WebSocket opened on the agent's port directly is not.
    const direct = new WebSocket(`ws://127.0.0.1:${(agent.address() as AddressInfo).port}/ws`);
    await once(direct, 'open');
    direct.close();
    expect(upgradesThroughTunnel).toEqual([true, false]);
  });

  it('refuses a header block of more fields than its limit, either way, with that stream only', async () => {
    const client = await tunnelUp;
    const refused = async (path: string, headers: Record<string, string> = {}) => {
      const stream = client.request({ ':method': 'GET', ':path': path, ...headers }, { endStream: true });
      stream.resume();
      // Its 'error' (the reset) comes before its 'close'.
      await new Promise((resolve) => stream.on('close', resolve));
      return stream.rstCode;
    };
    const { NGHTTP2_ENHANCE_YOUR_CALM } = http2.constants;
    // A request the agent will not take, and an answer the hub will not take.
    expect(await refused('/json', manyHeaders)).toBe(NGHTTP2_ENHANCE_YOUR_CALM);
    expect(await refused('/many-headers')).toBe(NGHTTP2_ENHANCE_YOUR_CALM);
    const next = client.request({ ':method': 'GET', ':path': '/json' }, { endStream: true });
    expect(JSON.parse(await collect(next))).toMatchObject({ ok: true });
  });
});

describe('requests the tunnel handed over', () => {
  const signed = signIdentity(identityKey('bnc_test'), {
    user: 'binnacle:user:a@example.com',
    groups: ['binnacle:role:owner'],
    aud: 'cluster-test',
    exp: Math.floor(Date.now() / 1000) + 60,
  });

  it('are known to the server as tunneled; a direct request with a valid-looking identity header is not', async () => {
    const client = await tunnelUp;
    const stream = client.request(
      { ':method': 'GET', ':path': '/peer', 'x-binnacle-identity': signed },
      { endStream: true },
    );
    expect(JSON.parse(await collect(stream))).toEqual({ tunneled: true, identity: signed });
    const direct = await fetch(`http://127.0.0.1:${(agent.address() as AddressInfo).port}/peer`, {
      headers: { 'x-binnacle-identity': signed },
    });
    expect(await direct.json()).toEqual({ tunneled: false, identity: signed });
  });
});

describe('closing and redialing', () => {
  it('tells the agent why the hub closed its tunnel, and the agent dials again', async () => {
    const first = await tunnelUp;
    const redialed = awaitTunnel();
    first.close(4001, 'the cluster token was rotated');
    await first.closed;
    const second = await redialed;
    await expect
      .poll(() => states, { timeout: 5000 })
      .toContain('disconnected closed (4001 the cluster token was rotated)');
    const stream = second.request({ ':method': 'GET', ':path': '/json' }, { endStream: true });
    expect(JSON.parse(await collect(stream))).toMatchObject({ ok: true });
    tunnelUp = Promise.resolve(second);
  }, 10_000);

  it('a refused dial is reported with the status, and retried', async () => {
    const refusedStates: string[] = [];
    const refused = dialHub({
      hubUrl,
      clusterToken: 'bnc_wrong',
      agentVersion: 'test',
      target: { server: agent },
      onState: (state, detail) => refusedStates.push(detail ? `${state} ${detail}` : state),
    });
    try {
      await expect
        .poll(
          () => refusedStates.filter((s) => s === 'disconnected the hub refused the tunnel (401)').length,
          {
            timeout: 5000,
          },
        )
        .toBeGreaterThanOrEqual(2);
    } finally {
      await refused.close();
    }
  });
});

describe('identity forwarded to the agent', () => {
  const key = identityKey('bnc_cluster_token');
  const identity = {
    user: 'binnacle:user:a@example.com',
    groups: ['binnacle:role:viewer'],
    aud: 'cluster-a',
    exp: 2_000_000_000,
  };

  it('verifies for the cluster it was signed for, and only with the right key, before expiry', () => {
    const header = signIdentity(key, identity);
    expect(verifyIdentity(key, header, 'cluster-a', Date.now())).toEqual(identity);
    expect(verifyIdentity(key, header, 'cluster-b', Date.now())).toBeUndefined();
    expect(verifyIdentity(identityKey('another token'), header, 'cluster-a', Date.now())).toBeUndefined();
    expect(verifyIdentity(key, header, 'cluster-a', 2_000_000_001_000)).toBeUndefined();
    const [payload] = header.split('.');
    const forged = Buffer.from(JSON.stringify({ ...identity, groups: ['system:masters'] })).toString(
      'base64url',
    );
    expect(
      verifyIdentity(key, header.replace(payload as string, forged), 'cluster-a', Date.now()),
    ).toBeUndefined();
  });

  it('a signer reuses a header for the same key, cluster and subjects only within its reuse window', () => {
    const signer = new IdentitySigner(60, 10);
    const subjects = { user: identity.user, groups: identity.groups };
    const at = 1_900_000_000_000;
    const first = signer.sign(key, subjects, 'cluster-a', at);
    expect(verifyIdentity(key, first, 'cluster-a', at)).toEqual({
      ...subjects,
      aud: 'cluster-a',
      exp: 1_900_000_060,
    });
    expect(signer.sign(key, subjects, 'cluster-a', at + 9_999)).toBe(first);
    // Past the window a new header is signed: a reused one always has 50 s of its minute left.
    const later = signer.sign(key, subjects, 'cluster-a', at + 10_000);
    expect(later).not.toBe(first);
    expect(verifyIdentity(key, later, 'cluster-a', at + 10_000)?.exp).toBe(1_900_000_070);
    // Another role, cluster or key (a rotated token) never gets an older header.
    const demoted = signer.sign(key, { ...subjects, groups: ['binnacle:role:member'] }, 'cluster-a', at);
    expect(verifyIdentity(key, demoted, 'cluster-a', at)?.groups).toEqual(['binnacle:role:member']);
    expect(verifyIdentity(key, signer.sign(key, subjects, 'cluster-b', at), 'cluster-b', at)).toBeDefined();
    const rotated = identityKey('bnc_rotated_token');
    expect(
      verifyIdentity(rotated, signer.sign(rotated, subjects, 'cluster-a', at), 'cluster-a', at),
    ).toBeDefined();
  });
});
