import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitUntil } from '@binnacle/testkit';
import { dialTestHub } from './stand-in-agent.ts';
import { startTestHub, type TestHub } from './test-hub.ts';

/** Settles with `promise`, or fails naming `what` after `ms`: a test's waits for what happens at once. */
export async function within<T>(promise: Promise<T>, what: string, ms = 10_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

export interface TunneledListener {
  t: TestHub;
  /** Where the hub listens on loopback. */
  hubUrl: string;
  /** The break-glass admin's session cookie value (`t.cookieName`). */
  cookie: string;
  clusterId: string;
  clusterToken: string;
  /** Dials the hub as the agent does (`dialHub` towards `handler`'s server) and waits until the hub holds the tunnel. */
  connect(): Promise<{ close(): Promise<void> }>;
  close(): Promise<void>;
}

/**
 * A real hub listening on loopback with one registered cluster, whose agent's own listener is `handler`: for
 * tests of what the hub does with a tunnel the test controls at both ends (answers held, tunnels dropped).
 */
export async function startTunneledListener(
  handler: http.RequestListener,
  clusterName = 'edge',
): Promise<TunneledListener> {
  const agent = http.createServer(handler);
  agent.listen(0, '127.0.0.1');
  await within(
    new Promise<void>((resolve) => agent.once('listening', resolve)),
    "the agent's listener to listen",
  );
  const t = await startTestHub({ config: { port: 0, listenAddress: '127.0.0.1' } });
  await t.hub.listen();
  const hubUrl = `http://127.0.0.1:${(t.hub.app.server.address() as AddressInfo).port}`;
  const { cookie } = await t.signInBreakGlass();
  const created = await t.request('POST', '/api/clusters', { as: { cookie }, body: { name: clusterName } });
  if (created.status !== 201)
    throw new Error(`creating the cluster answered ${created.status}: ${created.body}`);
  const { id: clusterId, token: clusterToken } = created.json<{ id: string; token: string }>();
  return {
    t,
    hubUrl,
    cookie,
    clusterId,
    clusterToken,
    async connect() {
      // A tunnel the test just closed may still be held for a moment: the new one must be the one measured.
      await waitUntil(
        'the previous tunnel to be gone',
        () => Promise.resolve(!t.hub.ctx.tunnels.get(clusterId)),
        {
          timeoutMs: 10_000,
          intervalMs: 20,
        },
      );
      return dialTestHub(t, clusterId, clusterToken, agent, 'tunneled-listener');
    },
    async close() {
      await t.close();
      agent.closeAllConnections();
      await new Promise<void>((resolve) => agent.close(() => resolve()));
    },
  };
}
