import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { dialHub } from './dialer.ts';
import { TunnelClient } from './hub-side.ts';
import { IdentitySigner, identityKey, peerKey, signIdentity, verifyIdentity } from './index.ts';

/** A stand-in for the agent's router: JSON, request bodies, a never-ending stream, and a WebSocket echo. */
let agent: http.Server;
let hub: http.Server;
let tunnel: TunnelClient | undefined;
let tunnelUp: Promise<TunnelClient>;
let dialer: { close(): Promise<void> };
const streamsClosed: string[] = [];
const tunnelPeers = new Set<string>();

beforeAll(async () => {
  agent = http.createServer((request, response) => {
    if (request.url === '/json')
      return response.end(JSON.stringify({ ok: true, path: request.url, via: request.headers['x-test'] }));
    if (request.url === '/echo') return request.pipe(response);
    if (request.url === '/peer')
      return response.end(
        String(tunnelPeers.has(peerKey(request.socket.remoteAddress, request.socket.remotePort))),
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
  echo.on('connection', (ws) => ws.on('message', (data) => ws.send(`echo:${data.toString()}`)));
  agent.listen(0, '127.0.0.1');
  await once(agent, 'listening');

  hub = http.createServer();
  const accept = new WebSocketServer({ noServer: true });
  let resolveTunnel: (client: TunnelClient) => void;
  tunnelUp = new Promise((resolve) => {
    resolveTunnel = resolve;
  });
  hub.on('upgrade', (request, socket, head) => {
    if (request.headers.authorization !== 'Bearer bnc_test') {
      socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n');
      return;
    }
    accept.handleUpgrade(request, socket, head, (ws) => {
      tunnel = new TunnelClient(ws);
      resolveTunnel(tunnel);
    });
  });
  hub.listen(0, '127.0.0.1');
  await once(hub, 'listening');
  dialer = dialHub({
    hubUrl: `http://127.0.0.1:${(hub.address() as AddressInfo).port}`,
    clusterToken: 'bnc_test',
    agentVersion: 'test',
    target: { host: '127.0.0.1', port: (agent.address() as AddressInfo).port, tunnelPeers },
  });
  await tunnelUp;
});

afterAll(async () => {
  await dialer.close();
  tunnel?.close();
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

describe('HTTP/2 over the agent-initiated WebSocket', () => {
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

  it('carries a WebSocket upgrade over a CONNECT stream', async () => {
    const client = await tunnelUp;
    const raw = client.connect();
    await once(raw, 'response');
    const ws = new WebSocket('ws://agent.tunnel/ws', { createConnection: () => raw as never });
    await once(ws, 'open');
    ws.send('hello');
    const [message] = (await once(ws, 'message')) as [Buffer];
    expect(message.toString()).toBe('echo:hello');
    ws.close();
  });
});

describe("the tunnel's own connections", () => {
  it('are known to the target by their client end while they are open; a direct client is not one of them', async () => {
    const client = await tunnelUp;
    const stream = client.request({ ':method': 'GET', ':path': '/peer' }, { endStream: true });
    expect(await collect(stream)).toBe('true');
    const direct = await fetch(`http://127.0.0.1:${(agent.address() as AddressInfo).port}/peer`);
    expect(await direct.text()).toBe('false');
    expect([...tunnelPeers].every((peer) => peer.startsWith('127.0.0.1:'))).toBe(true);
  });

  it('name an IPv4 client of a dual-stack listener plainly, and an IPv6 one with its address', () => {
    expect(peerKey('::ffff:127.0.0.1', 40_000)).toBe('127.0.0.1:40000');
    expect(peerKey('127.0.0.1', 40_000)).toBe('127.0.0.1:40000');
    expect(peerKey('::1', 40_000)).toBe('::1:40000');
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
