import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTunneledListener, type TunneledListener, within } from '../../testing/index.ts';

/**
 * A request the hub itself makes to an agent (`callAgent`, here through a fleet view) over the real tunnel:
 * the agent's listener answers the dashboard at once, or holds it (`?namespace=held`) until the test drops
 * the tunnel. A whole answer is the cluster's part; a drop before it is `cluster_disconnected`, never a hang.
 */
const dashboard = JSON.stringify({
  problems: [
    {
      kind: 'Pod',
      namespace: 'shop',
      name: 'web-1',
      status: 'Running',
      reason: 'CrashLoopBackOff',
      message: 'back-off restarting failed container',
      ageSeconds: 60,
      source: 'health',
    },
  ],
  health: { healthy: 1, warning: 0, error: 1, warningEvents: 0 },
  loading: [],
});
const held = new EventEmitter<{ arrived: [IncomingMessage] }>();
/** The searches that reached the agent, as their paths. */
const searched: string[] = [];
let hub: TunneledListener;

type Dialer = Awaited<ReturnType<TunneledListener['connect']>>;
const drops: { from: string; drop: (dialer: Dialer) => Promise<void> }[] = [
  { from: 'the agent closes the tunnel', drop: (dialer) => dialer.close() },
  {
    from: 'the hub cuts the tunnel',
    drop: async (dialer) => {
      hub.t.hub.ctx.tunnels.disconnect(hub.clusterId, 'test drop');
      await dialer.close();
    },
  },
];

const problems = (query = '') =>
  fetch(`${hub.hubUrl}/api/fleet/problems${query}`, {
    headers: { cookie: `${hub.t.cookieName}=${hub.cookie}` },
    signal: AbortSignal.timeout(15_000),
  });

beforeAll(async () => {
  hub = await startTunneledListener((request, response) => {
    if (request.url?.includes('namespace=held')) return void held.emit('arrived', request);
    if (request.url?.startsWith('/api/search')) {
      searched.push(request.url);
      const hit = {
        kind: 'Pod',
        group: '',
        namespace: 'shop',
        name: 'web-1',
        summary: 'Pod shop/web-1: Running',
      };
      return void response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ total: 1, hits: [hit], loading: [] }));
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(dashboard);
  });
});

afterAll(async () => {
  await hub?.close();
});

describe("the hub's own request to an agent", () => {
  it("reads the agent's whole answer as the cluster's part, several times over one tunnel", async () => {
    const dialer = await hub.connect();
    try {
      for (let i = 0; i < 3; i += 1) {
        const response = await within(problems(), 'the fleet answer');
        expect(response.status).toBe(200);
        expect(await response.json()).toMatchObject({
          items: [
            { clusterId: hub.clusterId, clusterName: 'edge', name: 'web-1', reason: 'CrashLoopBackOff' },
          ],
          total: 1,
          clusters: [{ id: hub.clusterId, status: 'ok', rows: 1 }],
          errors: [],
        });
      }
    } finally {
      await dialer.close();
    }
  });

  it('asks each agent for its objects as they were when the fleet search names a moment (at)', async () => {
    const dialer = await hub.connect();
    try {
      const at = '2026-11-29T03:12:05Z';
      const response = await within(
        fetch(`${hub.hubUrl}/api/fleet/search?q=web&at=${at}`, {
          headers: { cookie: `${hub.t.cookieName}=${hub.cookie}` },
          signal: AbortSignal.timeout(15_000),
        }),
        'the fleet search',
      );
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ items: [{ clusterId: hub.clusterId, name: 'web-1' }] });
      expect(new URL(searched.at(-1) ?? '', 'http://agent').searchParams.get('at')).toBe(at);
      const refused = await fetch(`${hub.hubUrl}/api/fleet/search?q=web&at=yesterday`, {
        headers: { cookie: `${hub.t.cookieName}=${hub.cookie}` },
      });
      expect(refused.status).toBe(400);
    } finally {
      await dialer.close();
    }
  });

  it.each(drops)(
    'names the cluster cluster_disconnected when its tunnel drops before the agent answers ($from)',
    async ({ drop }) => {
      const dialer = await hub.connect();
      const arrived = new Promise<IncomingMessage>((resolve) => held.once('arrived', resolve));
      const answer = problems('?namespace=held');
      await within(arrived, 'the request reaching the agent');
      await drop(dialer);
      const response = await within(answer, 'the fleet answer');
      expect(response.status).toBe(200);
      expect(await response.json()).toStrictEqual({
        items: [],
        total: 0,
        clusters: [{ id: hub.clusterId, name: 'edge', status: 'offline', rows: 0 }],
        errors: [
          {
            cluster: { id: hub.clusterId, name: 'edge' },
            code: 'cluster_disconnected',
            error: 'the tunnel to the cluster dropped before its agent answered',
          },
        ],
      });
    },
  );
});
