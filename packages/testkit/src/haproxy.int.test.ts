import { createServer, get, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { freePort } from './cluster/ports.ts';
import { waitUntil } from './cluster/wait.ts';
import { type HaproxyServer, haproxyConfig, haproxyPath, startHaproxy } from './haproxy.ts';

interface Replica {
  name: string;
  url: string;
  server: Server;
}

/** A stand-in replica: healthy at /api/health, says its name elsewhere, echoes on a WebSocket. */
async function replica(name: string): Promise<Replica> {
  const server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end(request.url === '/api/health' ? 'ok' : name);
  });
  const sockets = new WebSocketServer({ server });
  sockets.on('connection', (socket) => {
    socket.on('message', (data: Buffer) => socket.send(`${name}:${data.toString()}`));
  });
  const port = await freePort();
  await new Promise<void>((listening) => server.listen(port, '127.0.0.1', listening));
  return { name, url: `http://127.0.0.1:${port}`, server };
}

function stopReplica(replica: Replica): Promise<void> {
  return new Promise((closed) => {
    replica.server.close(() => closed());
    replica.server.closeAllConnections();
  });
}

/** A GET on a fresh connection: the answering replica's name. */
function who(url: string): Promise<string> {
  return new Promise((answered, failed) => {
    get(`${url}/who`, { agent: false }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on('end', () =>
        response.statusCode === 200 ? answered(body) : failed(new Error(`${response.statusCode}: ${body}`)),
      );
    }).once('error', failed);
  });
}

async function whoInTurn(url: string, count: number): Promise<string[]> {
  const names: string[] = [];
  for (let i = 0; i < count; i += 1) names.push(await who(url));
  return names;
}

describe('startHaproxy', () => {
  let a: Replica;
  let b: Replica;
  let proxy: HaproxyServer;
  beforeAll(async () => {
    [a, b] = await Promise.all([replica('a'), replica('b')]);
    proxy = await startHaproxy({ backends: [a, b].map(({ name, url }) => ({ name, url })) });
  });
  afterAll(async () => {
    await proxy?.stop();
    await Promise.all([a, b].filter((r) => r?.server.listening).map(stopReplica));
  });

  it('sends requests to the replicas in turn', async () => {
    const names = await whoInTurn(proxy.url, 6);
    expect(new Set(names)).toEqual(new Set(['a', 'b']));
    for (let i = 1; i < names.length; i += 1) expect(names[i]).not.toBe(names[i - 1]);
  });

  it('passes a WebSocket upgrade through to a replica', async () => {
    const socket = new WebSocket(`${proxy.url.replace('http:', 'ws:')}/tunnel`);
    try {
      const reply = await new Promise<string>((replied, failed) => {
        socket.once('open', () => socket.send('hello'));
        socket.once('message', (data: Buffer) => replied(data.toString()));
        socket.once('error', failed);
      });
      expect(reply).toMatch(/^[ab]:hello$/);
    } finally {
      socket.close();
    }
  });

  it('keeps answering through the other replica when one stops, and marks the stopped one down', async () => {
    await stopReplica(a);
    // Before the checks notice, a request sent to the stopped replica is redispatched to the other one.
    expect(await whoInTurn(proxy.url, 6)).toEqual(['b', 'b', 'b', 'b', 'b', 'b']);
    await waitUntil(
      'replica a marked down',
      () => Promise.resolve(proxy.logTail().includes('hubs/a is DOWN')),
      {
        timeoutMs: 10_000,
      },
    );
    expect(await whoInTurn(proxy.url, 4)).toEqual(['b', 'b', 'b', 'b']);
  });
});

describe('haproxyConfig', () => {
  it('refuses a backend that is not http://host:port or whose name HAProxy cannot take', () => {
    expect(() => haproxyConfig(1, [{ name: 'a', url: 'https://127.0.0.1:1' }])).toThrow(
      /http:\/\/<host>:<port>/,
    );
    expect(() => haproxyConfig(1, [{ name: 'a b', url: 'http://127.0.0.1:1' }])).toThrow(/"a b"/);
    expect(() => haproxyConfig(1, [])).toThrow(/at least one backend/);
  });

  it('fails naming the Debian package when the binary is missing', () => {
    expect(() => haproxyPath({ BINNACLE_HAPROXY: '/nonexistent/haproxy' })).toThrow(/Debian package haproxy/);
  });
});
