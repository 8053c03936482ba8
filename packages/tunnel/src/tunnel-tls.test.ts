import { once } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import { selfSignedCert } from '@binnacle/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dialHub } from './dialer.ts';
import { acceptTunnel, cameThroughTunnel, type TunnelClient } from './index.ts';

/**
 * The tunnel over TLS on both ends, as an agent dials a hub that terminates TLS itself (Node's HTTP/2 takes a
 * TLS socket only once nothing is left to write on it, and only for the protocol the upgrade agreed).
 */
const defaultCAs = tls.getCACertificates('default');
let hub: https.Server;
let dialer: { close(): Promise<void> };
let tunnel: Promise<TunnelClient>;
const agent = http.createServer((request, response) =>
  response.end(JSON.stringify({ version: request.httpVersion, tunneled: cameThroughTunnel(request) })),
);

beforeAll(async () => {
  const { cert, key } = await selfSignedCert({ cn: '127.0.0.1', san: 'IP:127.0.0.1', days: 1 });
  tls.setDefaultCACertificates([...defaultCAs, cert]);
  hub = https.createServer({ cert, key });
  tunnel = new Promise((resolve) => {
    hub.on(
      'upgrade',
      (_request, socket, head) => void acceptTunnel(socket, head, 'cluster-tls').then(resolve),
    );
  });
  hub.listen(0, '127.0.0.1');
  await once(hub, 'listening');
  dialer = dialHub({
    hubUrl: `https://127.0.0.1:${(hub.address() as AddressInfo).port}`,
    clusterToken: 'bnc_test',
    agentVersion: 'test',
    target: { server: agent },
  });
});

afterAll(async () => {
  await dialer?.close();
  hub?.closeAllConnections();
  hub?.close();
  tls.setDefaultCACertificates(defaultCAs);
});

it('carries requests over TLS, handed to the agent server as tunneled HTTP/2 requests', async () => {
  const client = await tunnel;
  const stream = client.request({ ':method': 'GET', ':path': '/' }, { endStream: true });
  let text = '';
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  await once(stream, 'end');
  expect(JSON.parse(text)).toEqual({ version: '2.0', tunneled: true });
});
