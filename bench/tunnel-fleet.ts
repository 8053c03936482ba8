import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { createCluster } from '@binnacle/testkit';
import { type Agent, dialAgent, startStandIn } from './agent-stand-in.ts';
import type { HubMemory } from './hub-process.ts';
import { awaitConnected, type HubSession, withHub } from './tunnel-hub.ts';

const connectTimeoutMs = 60_000;
/** Lets the hub finish the previous step's writes (last-seen times, audit) before memory is read. */
const settleMs = 1_000;
const probeClusters = 5;
const probesEach = 3;

export interface FleetFigures {
  agents: number;
  createClustersMs: number;
  /** From the first dial until the hub listed every cluster as connected. */
  connectMs: number;
  memory: { before: HubMemory; after: HubMemory; afterProbes: HubMemory };
  perAgentKB: { rss: number; heap: number };
  probes: { sent: number; ok: number; clusters: string[]; slowestMs: number };
  drops: number;
  hubStop: { exitMs: number; code: number | null; killed: boolean };
}

/** A few GETs through randomly chosen tunnels: each must reach the stand-in and come back intact. */
async function probe(session: HubSession, ids: string[], body: string) {
  const chosen = [...ids].sort(() => Math.random() - 0.5).slice(0, probeClusters);
  let ok = 0;
  let slowestMs = 0;
  for (const id of chosen) {
    for (let i = 0; i < probesEach; i += 1) {
      const started = performance.now();
      const res = await session.pool.request({
        method: 'GET',
        path: `/c/${id}/api/health`,
        headers: { cookie: session.owner.cookie },
      });
      const text = await res.body.text();
      slowestMs = Math.max(slowestMs, performance.now() - started);
      if (res.statusCode !== 200 || text !== body)
        throw new Error(`GET /c/${id}/api/health answered ${res.statusCode}: ${text.slice(0, 300)}`);
      ok += 1;
    }
  }
  return {
    sent: chosen.length * probesEach,
    ok,
    clusters: chosen,
    slowestMs: Math.round(slowestMs * 100) / 100,
  };
}

/** Dials every token at once, as agents do when a hub comes back; all opened, or none left open. */
async function dialAll(hubUrl: string, tokens: string[], server: Server): Promise<Agent[]> {
  const settled = await Promise.allSettled(tokens.map((t) => dialAgent(hubUrl, t, server, connectTimeoutMs)));
  const opened = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await Promise.all(opened.map((a) => a.close()));
    throw new Error(`${tokens.length - opened.length} of ${tokens.length} agents could not connect`, {
      cause: failed.reason,
    });
  }
  return opened;
}

/**
 * `count` clusters registered through the API, then `count` agents dialing one hub process at once (all
 * forwarding to one stand-in); the hub's RSS and heap before and after, and probes through a few tunnels.
 */
export async function measureFleet(count: number): Promise<FleetFigures> {
  const standIn = await startStandIn();
  try {
    return await withHub(8, async (session) => {
      const created = performance.now();
      const clusters: { id: string; token: string }[] = [];
      for (let i = 0; i < count; i += 1) {
        const cluster = await createCluster(
          session.hub,
          session.owner,
          `bench-agent-${String(i).padStart(4, '0')}`,
        );
        standIn.trust(cluster.id, cluster.token);
        clusters.push(cluster);
      }
      const createClustersMs = Math.round(performance.now() - created);
      await sleep(settleMs);
      const before = await session.hub.memory();
      const dialed = performance.now();
      const agents = await dialAll(
        session.hub.url,
        clusters.map((c) => c.token),
        standIn.server,
      );
      try {
        const ids = clusters.map((c) => c.id);
        await awaitConnected(session, ids, connectTimeoutMs);
        const connectMs = Math.round(performance.now() - dialed);
        const named = new Set(agents.map((a) => a.clusterId));
        if (ids.some((id) => !named.has(id)))
          throw new Error('the hub named some agents with another cluster id');
        await sleep(settleMs);
        const after = await session.hub.memory();
        const probes = await probe(session, ids, standIn.body);
        const perAgentKB = (from: number, to: number) => Math.round(((to - from) * 1024) / count);
        return {
          agents: count,
          createClustersMs,
          connectMs,
          memory: { before, after, afterProbes: await session.hub.memory() },
          perAgentKB: {
            rss: perAgentKB(before.rssMB, after.rssMB),
            heap: perAgentKB(before.heapUsedMB + before.externalMB, after.heapUsedMB + after.externalMB),
          },
          probes,
          drops: agents.reduce((sum, a) => sum + a.drops(), 0),
        };
      } finally {
        await Promise.all(agents.map((a) => a.close()));
      }
    });
  } finally {
    await standIn.close();
  }
}
