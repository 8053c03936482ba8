import { createHash } from 'node:crypto';
import http from 'node:http';
import http2 from 'node:http2';
import type { Duplex } from 'node:stream';
import { serverLogger } from '@binnacle/common/server';
import { freePort, openSse, type RedisServer, startRedis, waitUntil } from '@binnacle/testkit';
import { dialHub } from '@binnacle/tunnel';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { HubConfig } from '../../config/hub-config.ts';
import { ManualClock, startTestHub, type TestHub } from '../../testing/index.ts';
import { peerClusterHeader, peerHeader } from './peer-token.ts';
import { ReplicaSet } from './replica-set.ts';

/**
 * Two replicas of one hub (one PostgreSQL, one Redis), each listening on loopback with its replica port; a
 * real agent end of the tunnel (`dialHub`) connected to replica B only, in front of a stand-in agent listener.
 * Everything asked of replica A for that cluster is relayed through B. (The three-replica run behind HAProxy
 * with real agents, and a replica killed, is test/e2e/hub-replicas.int.test.ts.)
 */
const boundMs = 10_000;
let redis: RedisServer;
let a: TestHub;
let b: TestHub;
const urls = { a: '', b: '' };
const relayUrls = { a: '', b: '' };
let cookie = '';
let clusterId = '';
let clusterToken = '';
let dialer: { close(): Promise<void> } | undefined;
let hangOnce = 0;
const firstHang = Promise.withResolvers<void>();

const agent = http.createServer((request, response) => {
  if (request.url === '/api/whoami') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ identity: Boolean(request.headers['x-binnacle-identity']) }));
    return;
  }
  // Hangs the first time (the relay dies under it), answers the next.
  if (request.url === '/api/hang-once') {
    hangOnce += 1;
    if (hangOnce > 1) response.writeHead(200, { 'content-type': 'text/plain' }).end(`answer ${hangOnce}`);
    else firstHang.resolve();
    return;
  }
  if (request.url === '/api/stream') {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write('data: {"n":1}\n\n');
    return;
  }
  response.writeHead(404).end();
});
agent.on('upgrade', (request: http.IncomingMessage, socket: Duplex) => {
  const accept = createHash('sha1')
    .update(`${request.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
    .digest('base64');
  socket.on('error', () => socket.destroy());
  socket.write(
    `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
  );
  // Echo every frame back unchanged (the client's frames are masked; the test reads raw bytes only).
  socket.on('data', (chunk: Buffer) => socket.write(Buffer.from([0x81, 2, ...Buffer.from('ok')])) && chunk);
});

async function replica(database?: TestHub['database'], config: Partial<HubConfig> = {}) {
  const clock = new ManualClock(new Date());
  const port = await freePort();
  const relayPort = await freePort();
  const hub = await startTestHub({
    clock,
    database,
    config: {
      port,
      listenAddress: '127.0.0.1',
      redisUrl: redis.url,
      replicaUrl: `http://127.0.0.1:${relayPort}`,
      ...config,
    },
  });
  await hub.hub.listen();
  return { hub, url: `http://127.0.0.1:${port}`, relayUrl: `http://127.0.0.1:${relayPort}` };
}

const as = (session: string) => ({ cookie: `__Host-binnacle_session=${session}` });
const through = (hubUrl: string, path: string, session = cookie) =>
  fetch(`${hubUrl}/c/${clusterId}${path}`, { headers: as(session), signal: AbortSignal.timeout(boundMs) });

beforeAll(async () => {
  redis = await startRedis();
  const first = await replica();
  a = first.hub;
  urls.a = first.url;
  relayUrls.a = first.relayUrl;
  const second = await replica(a.database);
  b = second.hub;
  urls.b = second.url;
  relayUrls.b = second.relayUrl;
  cookie = (await a.signInBreakGlass()).cookie;
  const created = (
    await a.request('POST', '/api/clusters', { as: { cookie }, body: { name: 'relayed' } })
  ).json<{ id: string; token: string }>();
  clusterId = created.id;
  clusterToken = created.token;
  await new Promise<void>((resolve) => agent.listen(0, '127.0.0.1', resolve));
  dialer = dialHub({
    hubUrl: urls.b,
    clusterToken,
    agentVersion: 'replicas-test',
    target: { server: agent },
  });
  await waitUntil(
    'the agent to connect to replica B',
    () => Promise.resolve(Boolean(b.hub.ctx.tunnels.get(clusterId))),
    {
      timeoutMs: boundMs,
      intervalMs: 20,
    },
  );
});

afterAll(async () => {
  await dialer?.close();
  await a?.close();
  await b?.close();
  agent.close();
  await redis?.stop();
});

describe('several hub replicas', () => {
  it('relays a request for a cluster whose tunnel another replica holds, and lists it as connected there', async () => {
    expect(a.hub.ctx.tunnels.get(clusterId)).toBeUndefined();
    const answer = await through(urls.a, '/api/whoami');
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ identity: true });
    const listed = await a.request('GET', '/api/clusters', { as: { cookie } });
    expect(
      listed.json<{ items: { id: string; connected: boolean }[] }>().items.find((c) => c.id === clusterId)
        ?.connected,
    ).toBe(true);
  });

  it('relays a WebSocket upgrade through the replica holding the tunnel', async () => {
    const socket = new WebSocket(`${urls.a.replace('http', 'ws')}/c/${clusterId}/api/exec`, {
      headers: { ...as(cookie), origin: a.origin },
    });
    const first = await new Promise<string>((resolve, reject) => {
      socket.once('message', (data) => resolve(String(data)));
      socket.once('error', reject);
      socket.once('open', () => socket.send('hello'));
      setTimeout(() => reject(new Error('no message through the relayed WebSocket')), boundMs);
    });
    expect(first).toBe('ok');
    socket.close();
  });

  it('cuts a stream relayed through one replica when the user signs out on the other, within a second', async () => {
    const signedIn = await b.signInBreakGlass();
    const stream = await openSse(`${urls.a}/c/${clusterId}/api/stream`, as(signedIn.cookie));
    await stream.next(() => true);
    const out = await b.request('POST', '/api/auth/signout', { as: { cookie: signedIn.cookie } });
    expect(out.status).toBeLessThan(300);
    const started = Date.now();
    await waitUntil('the relayed stream to end', () => Promise.resolve(stream.ended()), {
      timeoutMs: boundMs,
      intervalMs: 20,
    });
    expect(Date.now() - started).toBeLessThan(1000);
    expect((await through(urls.a, '/api/whoami', signedIn.cookie)).status).toBe(401);
    expect((await through(urls.a, '/api/whoami')).status).toBe(200);
  });

  it('refuses relayed streams without a valid peer token', async () => {
    const session = http2.connect(relayUrls.b);
    try {
      for (const token of [undefined, '9999999999.forged']) {
        const stream = session.request({
          ':method': 'GET',
          ':path': '/api/whoami',
          [peerClusterHeader]: clusterId,
          ...(token ? { [peerHeader]: token } : {}),
        });
        const [headers] = (await new Promise((resolve) => stream.once('response', (h) => resolve([h])))) as [
          Record<string, unknown>,
        ];
        expect(headers[':status']).toBe(401);
        stream.close();
      }
    } finally {
      session.close();
    }
  });

  it('shares the fan-out bucket: the 31st fleet call across both replicas is refused', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const hub = i % 2 === 0 ? a : b;
      statuses.push((await hub.request('GET', '/api/fleet/problems', { as: { cookie } })).status);
    }
    expect(statuses.slice(0, 30).every((status) => status === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
  });

  it('rotating the token on one replica closes the tunnel held by the other', async () => {
    const rotated = await a.request('POST', `/api/clusters/${clusterId}/rotate-token`, { as: { cookie } });
    expect(rotated.status, rotated.body).toBe(200);
    await waitUntil(
      'the tunnel on replica B to close',
      () => Promise.resolve(!b.hub.ctx.tunnels.get(clusterId)),
      {
        timeoutMs: 2000,
        intervalMs: 20,
      },
    );
    expect((await through(urls.a, '/api/whoami')).status).toBe(503);
  });

  it("holds a request while a dead replica's cluster lands on a live one, instead of failing it", async () => {
    const created = (
      await a.request('POST', '/api/clusters', { as: { cookie }, body: { name: 'failing-over' } })
    ).json<{ id: string; token: string }>();
    // A replica killed while holding the tunnel: its claim stays in Redis, nothing listens at its URL.
    const deadUrl = `http://127.0.0.1:${await freePort()}`;
    const key = `bnc:tunnel:${created.id}`;
    const client = new Redis(redis.url);
    await client.set(key, deadUrl, 'EX', 30);
    await client.quit();
    // Replica a reading the claim a second time has found its holder dead and holds the request meanwhile.
    const watcher = new Redis(redis.url);
    const monitor = await watcher.monitor();
    let reads = 0;
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (args[0]?.toLowerCase() === 'get' && args[1] === key) reads += 1;
    });
    const pending = fetch(`${urls.a}/c/${created.id}/api/whoami`, {
      headers: as(cookie),
      signal: AbortSignal.timeout(boundMs),
    });
    try {
      await waitUntil('replica a reading the dead claim again', () => Promise.resolve(reads >= 2), {
        timeoutMs: boundMs,
        intervalMs: 20,
      });
    } finally {
      monitor.disconnect();
      watcher.disconnect();
    }
    const redialed = dialHub({
      hubUrl: urls.b,
      clusterToken: created.token,
      agentVersion: 'replicas-test',
      target: { server: agent },
    });
    try {
      // Only the agent that dialed after the request came can answer it.
      const answer = await pending;
      expect(answer.status).toBe(200);
    } finally {
      await redialed.close();
    }
  });

  it('sends a read again when the replica it was relayed through dies before the answer', async () => {
    const created = (
      await a.request('POST', '/api/clusters', { as: { cookie }, body: { name: 'relay-dies' } })
    ).json<{ id: string; token: string }>();
    const target = { server: agent };
    const onB = dialHub({
      hubUrl: urls.b,
      clusterToken: created.token,
      agentVersion: 'replicas-test',
      target,
    });
    let onA: { close(): Promise<void> } | undefined;
    try {
      await waitUntil(
        'the agent on replica B',
        () => Promise.resolve(Boolean(b.hub.ctx.tunnels.get(created.id))),
        {
          timeoutMs: boundMs,
          intervalMs: 20,
        },
      );
      const pending = fetch(`${urls.a}/c/${created.id}/api/hang-once`, {
        headers: as(cookie),
        signal: AbortSignal.timeout(boundMs),
      });
      await firstHang.promise;
      // Replica B's relay goes away with the request on it; its claim stays, as a killed process leaves it.
      await b.hub.ctx.replicas?.relay.close();
      onA = dialHub({ hubUrl: urls.a, clusterToken: created.token, agentVersion: 'replicas-test', target });
      const answer = await pending;
      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe('answer 2');
    } finally {
      await onA?.close();
      await onB.close();
    }
  });

  // After every test that uses it: this ends the break-glass session they share.
  it('a replica started with a new break-glass password puts it in force on the others at once (ADR 0047)', async () => {
    expect((await a.request('GET', '/api/account', { as: { cookie } })).status).toBe(200);
    const password = 'the password after the rotation';
    const rotated = await replica(a.database, { breakGlassPassword: password });
    try {
      // A's clock never moves: only the announcement over Redis makes it drop the cached password in force.
      await waitUntil(
        "replica A to refuse the old password's session",
        async () => (await a.request('GET', '/api/account', { as: { cookie } })).status === 401,
        { timeoutMs: 1000, intervalMs: 20 },
      );
      const signedIn = await rotated.hub.signInBreakGlass(password);
      expect((await a.request('GET', '/api/account', { as: { cookie: signedIn.cookie } })).status).toBe(200);
    } finally {
      await rotated.hub.close();
    }
  });

  it('fails to start naming the Redis it cannot reach, never its password, nor in what it logs', async () => {
    const lines: string[] = [];
    const log = serverLogger('info', { write: (line: string) => void lines.push(line) });
    const port = await freePort();
    const joining = ReplicaSet.connect({
      redisUrl: `redis://:hunter2-secret@127.0.0.1:${port}/0`,
      replicaUrl: 'http://127.0.0.1:1',
      log,
      events: { change: () => undefined, disconnect: () => undefined },
    });
    await expect(joining).rejects.toThrow(`cannot reach Redis at redis://127.0.0.1:${port}/0`);
    const said = `${String(await joining.catch((error: unknown) => error))}\n${lines.join('')}`;
    expect(said).not.toContain('hunter2');
  });
});
