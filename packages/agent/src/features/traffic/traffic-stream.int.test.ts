import {
  type HubbleServer,
  hubbleFlow,
  openSse,
  type SseClient,
  startHubbleServer,
  testCluster,
} from '@binnacle/testkit';
import type { V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindInNamespace, sendFrom, startTestAgent, type TestAgent } from '../../testing/index.ts';
import { cached, trafficPods } from '../../testing/traffic-pods.ts';

/** The trusted proxy of the restricted caller's agent; the test connects from there as a proxy would. */
const proxyAddress = '127.0.0.2';
const user = 'traffic-viewer@example.com';

let hubble: HubbleServer;
let agent: TestAgent;
let proxied: TestAgent;
let mine: { name: string; remove: () => Promise<void> };
let theirs: { name: string; remove: () => Promise<void> };
let pods: { api: V1Pod; client: V1Pod };
let other: { api: V1Pod; client: V1Pod };
let unbind: () => Promise<void>;
const streams: SseClient[] = [];

beforeAll(async () => {
  hubble = await startHubbleServer();
  const config = { hubbleAddress: hubble.address };
  [agent, proxied, mine, theirs] = await Promise.all([
    startTestAgent({ config }),
    startTestAgent({ config: { ...config, authMode: 'proxy', authProxyAddresses: proxyAddress } }),
    testCluster().namespace('traffic-mine'),
    testCluster().namespace('traffic-theirs'),
  ]);
  [pods, other] = await Promise.all([trafficPods(mine.name), trafficPods(theirs.name)]);
  unbind = await bindInNamespace(mine.name, { kind: 'User', name: user });
  const all = [pods.api, pods.client, other.api, other.client];
  await Promise.all([cached(agent, all), cached(proxied, all)]);
});

afterAll(async () => {
  for (const stream of streams) stream.close();
  await unbind?.();
  await Promise.all([agent?.close(), proxied?.close(), mine?.remove(), theirs?.remove(), hubble?.close()]);
});

/** GET as the restricted user, through the trusted proxy address. */
const asUser = (path: string) => sendFrom(proxied, path, { 'x-forwarded-user': user }, proxyAddress);

describe('the flow stream', () => {
  it('sends a snapshot, then a delta with an injected flow, then heartbeats', async () => {
    const time = Date.now() - 10_000;
    hubble.inject(hubbleFlow(pods.client, pods.api, { time, http: { type: 'REQUEST' } }));
    const stream = await openSse(`${agent.url}/api/traffic/flows/stream?namespace=${mine.name}&since=1m`);
    streams.push(stream);
    expect(stream.status).toBe(200);
    const pair = `pod/${mine.name}/client→deployment/${mine.name}/api`;
    const snapshot = await stream.next((e) => e.event === 'snapshot', 10_000);
    expect(snapshot.data).toMatchObject({
      available: true,
      source: 'hubble',
      windowMs: 60_000,
      pairs: [{ id: pair, flows: 1, requests: 1 }],
    });
    hubble.inject(hubbleFlow(pods.client, pods.api, { http: { type: 'RESPONSE', code: 502 } }));
    const delta = await stream.next((e) => e.event === 'delta', 5000);
    expect(delta.data).toEqual({
      changed: [
        expect.objectContaining({ id: pair, flows: 2, requests: 1, errors: 1, httpStatus: { '502': 1 } }),
      ],
      removed: [],
    });
    expect(hubble.followers).toBe(1);
    await stream.next((e) => e.event === 'heartbeat', 20_000);
  }, 40_000);
});

describe('flows as a caller with a narrower view sees them', () => {
  it('shows ends in namespaces it may not see as one hidden endpoint, and drops flows with none of its own', async () => {
    hubble.inject(
      hubbleFlow(other.client, pods.api, { http: { type: 'REQUEST' } }),
      hubbleFlow(other.api, pods.api, { http: { type: 'REQUEST' } }),
      hubbleFlow(other.client, other.api, { http: { type: 'REQUEST' } }),
    );
    const admin = await agent.json<{ pairs: { id: string }[] }>('/api/traffic/flows?since=1m');
    expect(admin.pairs.map((p) => p.id)).toContain(`pod/${theirs.name}/client→deployment/${theirs.name}/api`);
    const seen = await asUser('/api/traffic/flows?since=1m');
    expect(seen.status).toBe(200);
    const pairs = seen.body.pairs as { id: string; source: Record<string, unknown>; requests: number }[];
    const ids = pairs.map((p) => p.id);
    expect(ids).toContain(`hidden→deployment/${mine.name}/api`);
    expect(ids.some((id) => id.includes(theirs.name))).toBe(false);
    expect(pairs.find((p) => p.id === `hidden→deployment/${mine.name}/api`)).toMatchObject({
      source: { id: 'hidden', kind: 'Hidden', name: 'hidden' },
      requests: 2,
    });
    expect(JSON.stringify(seen.body)).not.toContain(String(other.client.status?.podIP));
  });
});
