import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { waitUntil } from '@binnacle/testkit';
import { dialHub, type TunnelState, tunnelProtocol } from '@binnacle/tunnel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startTestHub, type TestHub, within } from '../../testing/index.ts';

/**
 * The hub's tunnel proxy when the tunnel drops under a request in flight: the real hub (listening on
 * loopback), the real agent end of the tunnel (`dialHub`), and a plain HTTP server standing in for the agent's
 * own listener. A request the agent has not answered yet becomes a 502 `cluster_disconnected`; an answer
 * already streaming is cut at the client (an error, never a clean end). Neither ever hangs, and the
 * request at the agent is cancelled too.
 */
/** Only catches a hang: every wait here is for something that happens at once. */
const boundMs = 10_000;
let t: TestHub;
let hubUrl: string;
let cookie: string;
let clusterId: string;
let clusterToken: string;

/** What reached the stand-in agent: the request and the response it holds open. */
interface Arrival {
  request: IncomingMessage;
  response: ServerResponse;
}
const arrivals = new EventEmitter<{ arrived: [Arrival] }>();
const agent = http.createServer((request, response) => {
  // The agent's own 405, naming the methods its route takes.
  if (request.method === 'OPTIONS') {
    response
      .writeHead(405, { 'content-type': 'application/json', allow: 'GET, HEAD' })
      .end('{"error":"OPTIONS is not allowed on /api/ping; use GET, HEAD","code":"method_not_allowed"}');
    return;
  }
  if (request.url === '/api/ping') {
    response
      .writeHead(200, {
        'content-type': 'text/plain',
        'x-length-seen': request.headers['content-length'] ?? 'none',
      })
      .end('pong');
    return;
  }
  if (request.url === '/api/cookie') {
    response.writeHead(200, { 'set-cookie': 'agent=1' }).end('kept at the hub');
    return;
  }
  // An accepted MCP notification: a head and no body, whose stream ends as the head arrives.
  if (request.url === '/api/accepted') {
    response.writeHead(202).end();
    return;
  }
  // /api/slow never answers; /api/partial answers its head (announcing ?length= bytes, else chunked) and
  // part of the body, then stalls.
  const url = new URL(request.url ?? '/', 'http://agent');
  if (url.pathname === '/api/partial') {
    const length = url.searchParams.get('length');
    response.writeHead(200, {
      'content-type': 'text/plain; charset=utf-8',
      ...(length ? { 'content-length': length } : {}),
    });
    response.write('first part\n');
  }
  arrivals.emit('arrived', { request, response });
});
// WebSocket routes (exec, terminal) of the stand-in agent: accept the upgrade and hold the socket open.
const upgraded = new Set<Duplex>();
agent.on('upgrade', (request: IncomingMessage, socket: Duplex) => {
  const accept = createHash('sha1')
    .update(`${request.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
    .digest('base64');
  socket.on('error', () => socket.destroy());
  upgraded.add(socket);
  socket.write(
    `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
  );
});

/** The next request that reaches the stand-in agent (listen before sending it). */
const nextArrival = () => new Promise<Arrival>((resolve) => arrivals.once('arrived', resolve));

/** Resolves when the stand-in agent's side of a request is gone: the tunnel's drop reached it. */
const closedAtAgent = ({ request }: Arrival) =>
  new Promise<void>((resolve) => request.socket.once('close', () => resolve()));

const through = (path: string, method = 'GET') =>
  fetch(`${hubUrl}/c/${clusterId}${path}`, {
    method,
    headers: { cookie: `${t.cookieName}=${cookie}` },
    signal: AbortSignal.timeout(15_000),
  });

/** Dials the hub as the agent does and waits until the hub holds the tunnel and proxies through it. */
async function connectAgent() {
  await waitUntil(
    'the previous tunnel to be gone',
    () => Promise.resolve(!t.hub.ctx.tunnels.get(clusterId)),
    { timeoutMs: boundMs, intervalMs: 20 },
  );
  const states: string[] = [];
  const dialer = dialHub({
    hubUrl,
    clusterToken,
    agentVersion: 'proxy-test',
    target: { server: agent },
    onState: (state: TunnelState, detail?: string) => states.push(detail ? `${state} ${detail}` : state),
  });
  try {
    await waitUntil(
      'the agent to connect',
      () =>
        Promise.resolve(
          states.includes(`connected ${clusterId}`) && Boolean(t.hub.ctx.tunnels.get(clusterId)),
        ),
      { timeoutMs: boundMs, intervalMs: 20 },
    );
    const ping = await within(through('/api/ping'), 'a request through the fresh tunnel');
    expect(ping.status).toBe(200);
    expect(await ping.text()).toBe('pong');
  } catch (error) {
    await dialer.close();
    throw new Error(`the agent did not connect (states: ${states.join(', ')})`, { cause: error });
  }
  return dialer;
}

type Dialer = Awaited<ReturnType<typeof connectAgent>>;

/** The two ends a tunnel drops from: the agent closing its side, the hub cutting it (token rotated, replaced). */
const drops: { from: string; drop: (dialer: Dialer) => Promise<void> }[] = [
  { from: 'the agent closes the tunnel', drop: (dialer) => dialer.close() },
  {
    from: 'the hub cuts the tunnel',
    drop: () => Promise.resolve(t.hub.ctx.tunnels.disconnect(clusterId, 'test drop')),
  },
];
/** Answers cut mid-body: streamed in chunks (SSE, logs), or with a Content-Length (JSON, downloads). */
const cutAnswers = drops.flatMap((drop) => [
  { ...drop, answer: 'chunked', path: '/api/partial' },
  { ...drop, answer: 'content-length 1000', path: '/api/partial?length=1000' },
]);

beforeAll(async () => {
  agent.listen(0, '127.0.0.1');
  await within(
    new Promise<void>((resolve) => agent.once('listening', resolve)),
    'the stand-in agent to listen',
  );
  t = await startTestHub({ config: { port: 0, listenAddress: '127.0.0.1' } });
  await t.hub.listen();
  hubUrl = `http://127.0.0.1:${(t.hub.app.server.address() as AddressInfo).port}`;
  cookie = (await t.signInBreakGlass()).cookie;
  const created = await t.request('POST', '/api/clusters', { as: { cookie }, body: { name: 'flaky' } });
  expect(created.status, created.body).toBe(201);
  ({ id: clusterId, token: clusterToken } = created.json<{ id: string; token: string }>());
});

afterAll(async () => {
  await t?.close();
  agent.closeAllConnections();
  for (const socket of upgraded) socket.destroy();
  await new Promise<void>((resolve) => agent.close(() => resolve()));
});

describe('the tunnel proxy', () => {
  it('passes a bodiless answer (202) through at once', async () => {
    const dialer = await connectAgent();
    try {
      const response = await within(through('/api/accepted'), 'the 202');
      expect(response.status).toBe(202);
      expect(await within(response.text(), 'the empty body')).toBe('');
    } finally {
      await dialer.close();
    }
  });
});

describe('methods through the tunnel', () => {
  it("passes OPTIONS to the agent, whose 405 names its route's methods (not the hub's proxy route's)", async () => {
    const dialer = await connectAgent();
    try {
      const response = await within(through('/api/ping', 'OPTIONS'), 'the 405');
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
      expect(await response.json()).toMatchObject({ code: 'method_not_allowed' });
    } finally {
      await dialer.close();
    }
  });
});

describe('bodies through the tunnel', () => {
  it('drops the body of a GET together with its length, which the agent would wait for', async () => {
    const dialer = await connectAgent();
    try {
      const answer = await within(
        new Promise<{ status?: number; length?: string | string[]; body: string }>((resolve, reject) => {
          const sent = http.request(
            `${hubUrl}/c/${clusterId}/api/ping`,
            {
              method: 'GET',
              headers: {
                cookie: `${t.cookieName}=${cookie}`,
                'content-type': 'application/json',
                'content-length': 7,
              },
            },
            (response) => {
              let body = '';
              response.on('data', (chunk: Buffer) => {
                body += chunk.toString();
              });
              response.on('end', () =>
                resolve({ status: response.statusCode, length: response.headers['x-length-seen'], body }),
              );
            },
          );
          sent.on('error', reject);
          sent.end('{"a":1}');
        }),
        'the answer to a GET with a body',
      );
      expect(answer).toEqual({ status: 200, length: 'none', body: 'pong' });
    } finally {
      await dialer.close();
    }
  });
});

describe('the read path (plain reads that skip fastify, ADR 0112)', () => {
  it('authenticates as the route does, answers no-store, drops the agent cookies, and counts in the metrics', async () => {
    const dialer = await connectAgent();
    try {
      for (const headers of [{}, { cookie: `${t.cookieName}=not-a-session` }]) {
        const refused = await fetch(`${hubUrl}/c/${clusterId}/api/ping`, { headers });
        expect(refused.status).toBe(401);
        expect(refused.headers.get('cache-control')).toBe('no-store');
        expect(await refused.json()).toMatchObject({ code: 'unauthenticated' });
      }
      const answer = await through('/api/cookie');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('set-cookie')).toBeNull();
      expect(await answer.text()).toBe('kept at the hub');
      const metrics = await (await fetch(`${hubUrl}/metrics`)).text();
      expect(metrics).toMatch(
        /binnacle_hub_http_requests_total\{method="GET",route="\/c\/:cluster_id\/\*",status="200"\} [1-9]/,
      );
    } finally {
      await dialer.close();
    }
  });
});

describe('the tunnel proxy when the tunnel drops mid-request', () => {
  it.each(drops)('before the agent answers: 502 cluster_disconnected at once ($from)', async ({ drop }) => {
    const dialer = await connectAgent();
    try {
      const arrived = nextArrival();
      const answer = through('/api/slow?wait=forever');
      const arrival = await within(arrived, 'the request reaching the agent');
      expect(arrival.request.url).toBe('/api/slow?wait=forever');
      const cancelled = closedAtAgent(arrival);

      await drop(dialer);
      const response = await within(answer, 'the 502');
      const body: unknown = await within(response.json(), 'the 502 body');

      expect(response.status).toBe(502);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(body).toStrictEqual({ error: expect.any(String), code: 'cluster_disconnected' });
      await within(cancelled, "the agent's own request to be cancelled"); // nothing lingers there
    } finally {
      await dialer.close();
    }
  });

  it.each(cutAnswers)(
    'mid-answer ($answer): the client sees it cut, not hang ($from)',
    async ({ drop, path }) => {
      const dialer = await connectAgent();
      try {
        const arrived = nextArrival();
        const response = await within(through(path), 'the head of the answer');
        const cancelled = closedAtAgent(await within(arrived, 'the request reaching the agent'));
        expect(response.status).toBe(200);
        expect(response.headers.get('cache-control')).toBe('no-store');
        const reader = (response.body as ReadableStream<Uint8Array>).getReader();
        const decoder = new TextDecoder();
        const first = await within(reader.read(), 'the first part of the body');
        expect(decoder.decode(first.value)).toBe('first part\n');

        await drop(dialer);
        const rest = async (): Promise<{ ended: 'rejected' | 'done'; text: string }> => {
          let text = '';
          try {
            for (;;) {
              const { done, value } = await reader.read();
              if (done) return { ended: 'done', text };
              text += decoder.decode(value, { stream: true });
            }
          } catch {
            return { ended: 'rejected', text };
          }
        };
        const end = await within(rest(), 'the end of the cut answer');

        // Cut, not ended: a clean end would pass a truncated answer off as whole.
        expect(end).toStrictEqual({ ended: 'rejected', text: '' });
        await within(cancelled, "the agent's own request to be cancelled");
      } finally {
        await dialer.close();
      }
    },
  );
});

/** A WebSocket the hub refuses: its status, cache header and body. */
function refusedUpgrade(url: string, headers: Record<string, string>) {
  return within(
    new Promise<{ status?: number; cacheControl?: string; body: unknown }>((resolve, reject) => {
      const socket = new WebSocket(url, { headers });
      socket.on('error', () => undefined);
      socket.once('open', () => reject(new Error(`${url} was accepted`)));
      socket.once('unexpected-response', (_request, response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode,
            cacheControl: response.headers['cache-control'],
            body: JSON.parse(text) as unknown,
          }),
        );
      });
    }),
    `the refusal of ${url}`,
  );
}

describe('the tunnel door', () => {
  it('refuses a rotated cluster token at once, an agent speaking WebSocket, and unknown WebSocket routes, with {error, code}', async () => {
    const created = await t.request('POST', '/api/clusters', { as: { cookie }, body: { name: 'rotating' } });
    const { id, token } = created.json<{ id: string; token: string }>();
    expect((await t.request('POST', `/api/clusters/${id}/rotate-token`, { as: { cookie } })).status).toBe(
      200,
    );
    const door = `${hubUrl.replace('http', 'ws')}/api/agents/connect`;
    expect(await refusedUpgrade(door, { authorization: `Bearer ${token}` })).toStrictEqual({
      status: 401,
      cacheControl: 'no-store',
      body: { error: expect.stringContaining('cluster token'), code: 'unauthenticated' },
    });
    // A valid token on a WebSocket (the agents before ADR 0110) is told what to speak instead.
    const current = await t.request('POST', '/api/clusters', { as: { cookie }, body: { name: 'old-agent' } });
    expect(
      await refusedUpgrade(door, { authorization: `Bearer ${current.json<{ token: string }>().token}` }),
    ).toStrictEqual({
      status: 426,
      cacheControl: 'no-store',
      body: { error: expect.stringContaining(tunnelProtocol), code: 'upgrade_required' },
    });
    expect(await refusedUpgrade(`${hubUrl.replace('http', 'ws')}/api/nowhere`, {})).toStrictEqual({
      status: 404,
      cacheControl: 'no-store',
      body: { error: expect.stringContaining('/api/nowhere'), code: 'route_not_found' },
    });
  });
});

describe('a hub stopping under a request in flight', () => {
  it('answers the unanswered request 502 cluster_disconnected before it goes', async () => {
    const stopping = await startTestHub({ config: { port: 0, listenAddress: '127.0.0.1' } });
    await stopping.hub.listen();
    const url = `http://127.0.0.1:${(stopping.hub.app.server.address() as AddressInfo).port}`;
    const owner = (await stopping.signInBreakGlass()).cookie;
    const created = await stopping.request('POST', '/api/clusters', {
      as: { cookie: owner },
      body: { name: 'x' },
    });
    const { id, token } = created.json<{ id: string; token: string }>();
    const dialer = dialHub({
      hubUrl: url,
      clusterToken: token,
      agentVersion: 'proxy-test',
      target: { server: agent },
    });
    try {
      await waitUntil(
        'the agent to connect',
        () => Promise.resolve(Boolean(stopping.hub.ctx.tunnels.get(id))),
        {
          timeoutMs: boundMs,
          intervalMs: 20,
        },
      );
      const arrived = nextArrival();
      const answer = fetch(`${url}/c/${id}/api/slow`, {
        headers: { cookie: `${stopping.cookieName}=${owner}` },
        signal: AbortSignal.timeout(15_000),
      });
      await within(arrived, 'the request reaching the agent');
      const closed = stopping.close();
      const response = await within(answer, 'the answer of the stopping hub');
      expect(response.status).toBe(502);
      // The answer ends its connection, so the client that got it does not hold the stopping hub open.
      expect(response.headers.get('connection')).toBe('close');
      expect(await response.json()).toStrictEqual({
        error: expect.any(String),
        code: 'cluster_disconnected',
      });
      await within(closed, 'the hub to stop');
    } finally {
      await dialer.close();
    }
  });
});

describe('tunneled streams live only as long as the access they were opened with', () => {
  let orgId: string;
  beforeAll(async () => {
    orgId = (await t.request('GET', '/api/account', { as: { cookie } })).json<{
      currentOrg: { id: string };
    }>().currentOrg.id;
  });

  /** Opens a never-ending answer through the tunnel with these headers; resolves how its body ends. */
  async function openStream(headers: Record<string, string>, cluster = clusterId) {
    const arrived = nextArrival();
    const response = await within(
      fetch(`${hubUrl}/c/${cluster}/api/partial`, { headers, signal: AbortSignal.timeout(15_000) }),
      'the head of the stream',
    );
    await within(arrived, 'the stream reaching the agent');
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await within(reader.read(), 'the first part of the stream');
    let settled: 'open' | 'cut' | 'ended' = 'open';
    const ended = (async () => {
      try {
        while (!(await reader.read()).done);
        settled = 'ended';
      } catch {
        settled = 'cut';
      }
    })();
    return { state: () => settled, ended, cancel: () => reader.cancel().catch(() => undefined) };
  }

  const cookieOf = (value: string) => ({ cookie: `${t.cookieName}=${value}` });
  const withAgent = async (test: () => Promise<void>) => {
    const dialer = await connectAgent();
    try {
      await test();
    } finally {
      await dialer.close();
    }
  };
  /** The change's answer came back: the stream must be cut already, or within a moment. */
  const expectCut = async (stream: { ended: Promise<void>; state(): string }, what: string) => {
    await within(stream.ended, what, 1_000);
    expect(stream.state()).toBe('cut');
  };

  it('removing a member cuts their live stream before the answer to the removal', async () => {
    await withAgent(async () => {
      const bob = await t.addUser(`bob-${Date.now()}@example.com`, 'member', orgId);
      const stream = await openStream(cookieOf(bob.cookie));
      const other = await t.request('POST', '/api/clusters', { as: { cookie }, body: { name: 'unrelated' } });
      expect(other.status).toBe(201); // a change that leaves bob's access alone leaves his stream alone
      expect(stream.state()).toBe('open');
      const removed = await t.request('DELETE', `/api/orgs/${orgId}/members/${bob.userId}`, {
        as: { cookie },
      });
      expect(removed.status).toBe(204);
      await expectCut(stream, 'the cut of the removed member’s stream');
    });
  });

  it('removing a member closes their WebSocket (an exec shell) through the tunnel', async () => {
    await withAgent(async () => {
      const dave = await t.addUser(`dave-${Date.now()}@example.com`, 'member', orgId);
      const socket = new WebSocket(`${hubUrl.replace('http', 'ws')}/c/${clusterId}/api/pods/ns/pod/exec`, {
        headers: { ...cookieOf(dave.cookie), origin: new URL(t.hub.ctx.config.publicUrl).origin },
      });
      socket.on('error', () => undefined);
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      await within(
        new Promise((resolve, reject) => {
          socket.once('open', resolve);
          socket.once('unexpected-response', (_request, response) =>
            reject(new Error(`${response.statusCode}`)),
          );
        }),
        'the WebSocket to open through the tunnel',
      );
      const removed = await t.request('DELETE', `/api/orgs/${orgId}/members/${dave.userId}`, {
        as: { cookie },
      });
      expect(removed.status).toBe(204);
      await within(closed, 'the removed member’s WebSocket to close', 1_000);
    });
  });

  it("leaving the cluster's organization cuts the stream, though the session acts in another one", async () => {
    const orgB = await t.createOrg('second');
    const boss = await t.addUser(`boss-${Date.now()}@example.com`, 'owner', orgB);
    const created = await t.request('POST', '/api/clusters', {
      as: { cookie: boss.cookie },
      body: { name: 'b' },
    });
    const clusterB = created.json<{ id: string; token: string }>();
    const email = `erin-${Date.now()}@example.com`;
    const erin = await t.addUser(email, 'member', orgId); // her session acts in the first organization
    await t.addUser(email, 'viewer', orgB);
    const dialer = dialHub({
      hubUrl,
      clusterToken: clusterB.token,
      agentVersion: 'proxy-test',
      target: { server: agent },
    });
    try {
      await waitUntil(
        'the second agent to connect',
        () => Promise.resolve(Boolean(t.hub.ctx.tunnels.get(clusterB.id))),
        {
          timeoutMs: boundMs,
          intervalMs: 20,
        },
      );
      const stream = await openStream(cookieOf(erin.cookie), clusterB.id);
      const removed = await t.request('DELETE', `/api/orgs/${orgB}/members/${erin.userId}`, {
        as: { cookie: boss.cookie },
      });
      expect(removed.status).toBe(204);
      await expectCut(stream, 'the cut of the stream to the organization she left');
    } finally {
      await dialer.close();
    }
  });

  it("changing a member's role cuts their live stream (it carried the old role into the cluster)", async () => {
    await withAgent(async () => {
      const carol = await t.addUser(`carol-${Date.now()}@example.com`, 'member', orgId);
      const stream = await openStream(cookieOf(carol.cookie));
      const demoted = await t.request('PATCH', `/api/orgs/${orgId}/members/${carol.userId}`, {
        as: { cookie },
        body: { role: 'viewer' },
      });
      expect(demoted.status).toBe(204);
      await expectCut(stream, 'the cut of the demoted member’s stream');
    });
  });

  it('revoking a PAT cuts the live streams opened with it; signing out cuts the session’s', async () => {
    await withAgent(async () => {
      const minted = (
        await t.request('POST', '/api/pats', { as: { cookie }, body: { name: 'stream' } })
      ).json<{
        id: string;
        token: string;
      }>();
      const viaPat = await openStream({ authorization: `Bearer ${minted.token}` });
      const session = await t.signInBreakGlass();
      const viaSession = await openStream(cookieOf(session.cookie));
      expect((await t.request('DELETE', `/api/pats/${minted.id}`, { as: { cookie } })).status).toBe(204);
      await within(viaPat.ended, 'the cut of the PAT’s stream', 1_000);
      expect([viaPat.state(), viaSession.state()]).toEqual(['cut', 'open']);
      const signedOut = await t.request('POST', '/api/auth/signout', { as: { cookie: session.cookie } });
      expect(signedOut.status).toBeLessThan(300);
      await expectCut(viaSession, 'the cut of the signed-out session’s stream');
      expect(t.hub.ctx.liveStreams.size).toBe(0);
    });
  });
  it('a client that leaves before the agent answers leaves nothing behind: the agent request ends, untracked', async () => {
    await withAgent(async () => {
      const arrived = nextArrival();
      const abort = new AbortController();
      const pending = fetch(`${hubUrl}/c/${clusterId}/api/slow`, {
        headers: cookieOf(cookie),
        signal: abort.signal,
      }).catch(() => undefined);
      const cancelled = closedAtAgent(await within(arrived, 'the request reaching the agent'));
      expect(t.hub.ctx.liveStreams.size).toBe(1);
      abort.abort();
      await pending;
      await within(cancelled, "the agent's request to be cancelled");
      await waitUntil('the stream to be forgotten', () => Promise.resolve(t.hub.ctx.liveStreams.size === 0), {
        timeoutMs: boundMs,
        intervalMs: 20,
      });
    });
  });

  // Last in the file: it moves the hub's clock a day on, which ends every session.
  it('expiry ends streams too: a PAT past its expiry, a session past its inactivity window (periodic recheck)', async () => {
    await withAgent(async () => {
      const minted = (
        await t.request('POST', '/api/pats', { as: { cookie }, body: { name: 'short', expiresIn: '1h' } })
      ).json<{ token: string }>();
      const viaPat = await openStream({ authorization: `Bearer ${minted.token}` });
      const idle = await t.signInBreakGlass();
      const viaIdleSession = await openStream(cookieOf(idle.cookie));
      expect(await t.hub.ctx.liveStreams.recheck()).toBe(0);
      t.clock.advance(61 * 60_000);
      expect(await t.hub.ctx.liveStreams.recheck()).toBe(1);
      await expectCut(viaPat, 'the cut of the expired PAT’s stream');
      expect(viaIdleSession.state()).toBe('open');
      t.clock.advance(24 * 60 * 60_000);
      expect(await t.hub.ctx.liveStreams.recheck()).toBe(1);
      await expectCut(viaIdleSession, 'the cut of the idle session’s stream');
    });
  });
});
