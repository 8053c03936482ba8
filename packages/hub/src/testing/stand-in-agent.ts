import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitUntil } from '@binnacle/testkit';
import { dialHub, identityHeader } from '@binnacle/tunnel';
import type { TestHub } from './test-hub.ts';

/** What the stand-in agent answers every request with. */
export interface StandInAnswer {
  method: string;
  /** The path (and query) exactly as it arrived at the agent's listener. */
  path: string;
  /** The claims of the identity the hub forwarded (not verified: what the hub sent is what is checked). */
  identity: Record<string, unknown> | null;
}

export interface StandInAgent {
  /** Dials `t` (which must be listening) with the cluster's token and waits until the hub holds the tunnel. */
  connect(t: TestHub, clusterId: string, token: string): Promise<{ close(): Promise<void> }>;
  close(): Promise<void>;
}

/**
 * Dials `t` (which must be listening) as the agent does, with the cluster's token, handing the tunnel's requests
 * to `server` (the agent's own server, in process), and waits until the hub holds the tunnel.
 */
export async function dialTestHub(
  t: TestHub,
  clusterId: string,
  token: string,
  server: http.Server,
  agentVersion = 'stand-in',
): Promise<{ close(): Promise<void> }> {
  const address = t.hub.app.server.address() as AddressInfo | null;
  if (!address) throw new Error('the test hub is not listening: call t.hub.listen() first');
  const dialer = dialHub({
    hubUrl: `http://127.0.0.1:${address.port}`,
    clusterToken: token,
    agentVersion,
    target: { server },
  });
  try {
    await waitUntil(
      'the stand-in agent to connect',
      () => Promise.resolve(Boolean(t.hub.ctx.tunnels.get(clusterId))),
      { timeoutMs: 10_000, intervalMs: 20 },
    );
  } catch (error) {
    await dialer.close();
    throw error;
  }
  return dialer;
}

/**
 * The agent's own listener behind the real agent end of the tunnel (`dialHub`), for hub tests that need a
 * connected cluster: it answers 200 with the request it received, so a test sees what reached the agent.
 */
export async function startStandInAgent(): Promise<StandInAgent> {
  const server = http.createServer((request, response) => {
    const header = request.headers[identityHeader];
    const payload = typeof header === 'string' ? header.split('.')[0] : undefined;
    const answer: StandInAnswer = {
      method: request.method ?? '',
      path: request.url ?? '',
      identity: payload ? JSON.parse(Buffer.from(payload, 'base64url').toString()) : null,
    };
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return {
    connect: (t, clusterId, token) => dialTestHub(t, clusterId, token, server),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
