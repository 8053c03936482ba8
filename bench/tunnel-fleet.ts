import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { createCluster } from '@binnacle/testkit';
import { type Agent, dialAgent, type StandIn, startStandIn } from './agent-stand-in.ts';
import type { HubMemory } from './hub-process.ts';
import { cpuSpent } from './process-cpu.ts';
import type { RssSamples } from './process-memory.ts';
import { inBatches } from './replica-probes.ts';
import { awaitConnected, type HubSession, withHub } from './tunnel-hub.ts';

const connectTimeoutMs = 60_000;
/** Lets the hub finish the previous step's writes (last-seen times, audit) before memory is read. */
const settleMs = 1_000;
/** Clusters registered at once: the owner's form, a few tabs open, not a flood. */
const registerBatch = 8;
/** RSS read this often while the agents connect; the count bounds a stuck phase. */
const rssEveryMs = 50;
const maxRssSamples = (connectTimeoutMs / rssEveryMs) * 2;
const probeClusters = 5;
const probesEach = 3;

export interface ConnectFigures {
  agents: number;
  createClustersMs: number;
  /** From the first dial until the hub listed every cluster as connected. */
  connectMs: number;
  /** `before` and `after` right after a full GC in the hub; `whileConnecting` sampled without one. */
  memory: { before: HubMemory; whileConnecting: RssSamples; after: HubMemory };
  perAgentKB: { rss: number; heap: number };
  /** CPU time of the hub and of this process (dialers, stand-in, the polling list) while they connected. */
  connectCpu: { hubMs: number; benchMs: number; wallMs: number };
}

export interface OpenFleet {
  clusters: { id: string; token: string }[];
  agents: Agent[];
  figures: ConnectFigures;
  drops(): number;
  close(): Promise<void>;
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
 * `count` clusters registered through the API, then `count` agents dialing the hub at once (all forwarding to
 * `standIn`), timed until the hub lists every one as connected; the hub's memory before (after a full GC),
 * while they connect (sampled) and after. The caller closes the fleet.
 */
export async function openFleet(session: HubSession, standIn: StandIn, count: number): Promise<OpenFleet> {
  const created = performance.now();
  const clusters = await inBatches(Array.from({ length: count }), registerBatch, async (_item, i) => {
    const cluster = await createCluster(
      session.hub,
      session.owner,
      `bench-agent-${String(i).padStart(4, '0')}`,
    );
    standIn.trust(cluster.id, cluster.token);
    return cluster;
  });
  const createClustersMs = Math.round(performance.now() - created);
  await sleep(settleMs);
  const before = await session.hub.memory();
  const cpu = await cpuSpent(session.hub.pid);
  const sampling = session.hub.sampleRss(rssEveryMs, maxRssSamples);
  const dialed = performance.now();
  let agents: Agent[] = [];
  const close = async () => void (await Promise.all(agents.map((a) => a.close())));
  try {
    agents = await dialAll(
      session.hub.url,
      clusters.map((c) => c.token),
      standIn.server,
    );
    const ids = clusters.map((c) => c.id);
    await awaitConnected(session, ids, connectTimeoutMs);
    const connectMs = Math.round(performance.now() - dialed);
    const whileConnecting = await sampling();
    const connectCpu = await cpu();
    const named = new Set(agents.map((a) => a.clusterId));
    if (ids.some((id) => !named.has(id)))
      throw new Error('the hub named some agents with another cluster id');
    await sleep(settleMs);
    const after = await session.hub.memory();
    const perAgentKB = (from: number, to: number) => Math.round(((to - from) * 1024) / count);
    return {
      clusters,
      agents,
      figures: {
        agents: count,
        createClustersMs,
        connectMs,
        memory: { before, whileConnecting, after },
        perAgentKB: {
          rss: perAgentKB(before.rssMB, after.rssMB),
          heap: perAgentKB(before.heapUsedMB + before.externalMB, after.heapUsedMB + after.externalMB),
        },
        connectCpu,
      },
      drops: () => agents.reduce((sum, a) => sum + a.drops(), 0),
      close,
    };
  } catch (error) {
    // Stops the sampler a failed dial left running; the dial's error is the one worth reporting.
    await sampling().catch(() => undefined);
    await close();
    throw error;
  }
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

export type FleetFigures = Awaited<ReturnType<typeof measureFleet>>;

/**
 * `count` agents on one hub process (all forwarding to one stand-in, see openFleet), then probes through a
 * few tunnels and the hub's memory after them.
 */
export async function measureFleet(count: number) {
  const standIn = await startStandIn();
  try {
    return await withHub(registerBatch, async (session) => {
      const fleet = await openFleet(session, standIn, count);
      try {
        const probes = await probe(
          session,
          fleet.clusters.map((c) => c.id),
          standIn.body,
        );
        const { memory } = fleet.figures;
        return {
          ...fleet.figures,
          memory: { ...memory, afterProbes: await session.hub.memory() },
          probes,
          drops: fleet.drops(),
        };
      } finally {
        await fleet.close();
      }
    });
  } finally {
    await standIn.close();
  }
}
