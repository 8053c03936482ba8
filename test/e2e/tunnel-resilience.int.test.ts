import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestAgent, type TestAgent } from '@binnacle/agent/testing';
import { ManualClock, startTestHub, type TestHub } from '@binnacle/hub/testing';
import { createCluster, freePort, openSse, signInOwner, spawnHub, waitUntil } from '@binnacle/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The hub going away under live streams, and coming back: nothing hangs, the agent redials by itself. */
let port: number;
let hub: TestHub;
let agent: TestAgent;
let cookie: string;
let clusterId: string;

const hubOnPort = (database?: TestHub['database']) =>
  startTestHub({
    clock: new ManualClock(new Date()),
    database,
    config: { port, listenAddress: '127.0.0.1' },
  });
const through = (path: string) =>
  fetch(`http://127.0.0.1:${port}/c/${clusterId}${path}`, {
    headers: { cookie: `__Host-binnacle_session=${cookie}` },
  });
const connected = (t: TestHub) =>
  waitUntil('the agent to (re)connect', () => Promise.resolve(Boolean(t.hub.ctx.tunnels.get(clusterId))), {
    timeoutMs: 30_000,
    intervalMs: 100,
  });

beforeAll(async () => {
  port = await freePort();
  hub = await hubOnPort();
  await hub.hub.listen();
  const admin = await hub.signInBreakGlass();
  cookie = admin.cookie;
  const created = (
    await hub.request('POST', '/api/clusters', { as: { cookie }, body: { name: 'resilient' } })
  ).json<{ id: string; token: string }>();
  clusterId = created.id;
  agent = await startTestAgent({
    config: { cloudUrl: `http://127.0.0.1:${port}`, clusterToken: created.token },
  });
  await connected(hub);
});

afterAll(async () => {
  await agent?.close();
  await hub?.close();
});

describe('tunnel resilience', () => {
  it('a dropped tunnel ends live streams instead of hanging them; the agent redials within seconds', async () => {
    const stream = await openSse(`http://127.0.0.1:${port}/c/${clusterId}/api/events/stream`, {
      cookie: `__Host-binnacle_session=${cookie}`,
    });
    await stream.next(() => true);
    const dropped = Date.now();
    hub.hub.ctx.tunnels.disconnect(clusterId, 'test drop');
    await waitUntil('the SSE stream to end', () => Promise.resolve(stream.ended()), {
      timeoutMs: 10_000,
      intervalMs: 50,
    });
    const offline = await through('/api/health');
    expect([200, 503]).toContain(offline.status); // 503 cluster_offline until the agent is back
    await connected(hub);
    expect(Date.now() - dropped).toBeLessThan(30_000);
    expect((await through('/api/health')).status).toBe(200);
  });

  it('stopping the hub mid-stream ends the stream; the agent is connected again within 30 s of its return', async () => {
    const stream = await openSse(`http://127.0.0.1:${port}/c/${clusterId}/api/events/stream`, {
      cookie: `__Host-binnacle_session=${cookie}`,
    });
    await stream.next(() => true);
    const database = hub.database;
    await hub.hub.close();
    await waitUntil('the SSE stream to end', () => Promise.resolve(stream.ended()), {
      timeoutMs: 10_000,
      intervalMs: 50,
    });
    hub = await hubOnPort(database);
    await hub.hub.listen();
    const back = Date.now();
    await connected(hub);
    expect(Date.now() - back).toBeLessThan(30_000);
    expect((await through('/api/health')).status).toBe(200);
  });
});

describe('a hub killed outright (SIGKILL), in its own process', () => {
  it('ends the live stream through it at once; the agent is back within 30 s of a new process on the port', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'binnacle-killed-hub-'));
    let killable = await spawnHub({ dataDir });
    let killedAgent: TestAgent | undefined;
    try {
      const owner = await signInOwner(killable);
      const session = owner.cookie;
      const { id, token } = await createCluster(killable, owner, 'killed-hub');
      killedAgent = await startTestAgent({ config: { cloudUrl: killable.url, clusterToken: token } });
      const health = () =>
        fetch(`${killable.url}/c/${id}/api/health`, { headers: { cookie: session } })
          .then((answer) => answer.status)
          .catch(() => 0);
      await waitUntil('the agent to connect', async () => (await health()) === 200, {
        timeoutMs: 15_000,
        intervalMs: 100,
      });
      const stream = await openSse(`${killable.url}/c/${id}/api/events/stream`, { cookie: session });
      await stream.next(() => true);

      await killable.kill();
      await waitUntil('the SSE stream to end', () => Promise.resolve(stream.ended()), {
        timeoutMs: 5_000,
        intervalMs: 20,
      });

      killable = await spawnHub({ dataDir, port: killable.port });
      const back = Date.now();
      await waitUntil('the agent to reconnect to the new hub process', async () => (await health()) === 200, {
        timeoutMs: 30_000,
        intervalMs: 100,
      });
      expect(Date.now() - back).toBeLessThan(30_000);
    } finally {
      await killedAgent?.close();
      await killable.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
