import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../security/clock.ts';
import { SharedWindowLimit } from '../../security/shared-window.ts';
import type { RateLimit } from '../../security/sliding-window.ts';
import type { Changes } from '../access/changes.ts';
import type { TunnelRegistry } from '../tunnels/registry.ts';
import { PeerTokens } from './peer-token.ts';
import { PeerTunnels, type TunnelEnd } from './peer-tunnels.ts';
import { type Relay, startRelay } from './relay.ts';
import { ReplicaSet } from './replica-set.ts';

export interface Replicas {
  set: ReplicaSet;
  peers: PeerTunnels;
  relay: Relay;
}

/** What finding a cluster's tunnel reads: the ones held here and, with replicas, the shared directory. */
export interface TunnelDirectory {
  tunnels: TunnelRegistry;
  replicas?: Replicas;
  log: FastifyBaseLogger;
}

/** What joining the others touches: changes and tunnels are shared with them, the fan-out bucket replaced. */
export interface ReplicaDeps {
  log: FastifyBaseLogger;
  clock: Clock;
  secretKey: Buffer;
  changes: Changes;
  tunnels: TunnelRegistry;
  fleetLimit: RateLimit;
}

/**
 * Makes this hub one replica among several (`redisUrl`): tunnels claimed in Redis, changes and disconnects
 * heard from the others, the fan-out bucket shared, and the replica port relaying for the others.
 */
export async function joinReplicas(
  ctx: ReplicaDeps,
  settings: { redisUrl: string; replicaUrl: string },
): Promise<Replicas> {
  const set = await ReplicaSet.connect({
    redisUrl: settings.redisUrl,
    replicaUrl: settings.replicaUrl,
    log: ctx.log,
    events: {
      change: () => ctx.changes.received(),
      disconnect: (clusterId, reason) => ctx.tunnels.disconnectHere(clusterId, reason),
    },
  });
  ctx.tunnels.shareWith(set);
  ctx.changes.publishTo(() => set.announceChange());
  ctx.fleetLimit = new SharedWindowLimit(set.redis, ctx.clock, {
    name: 'fan-out',
    limit: ctx.fleetLimit.limit,
    windowMs: ctx.fleetLimit.windowMs,
  });
  const tokens = new PeerTokens(ctx.secretKey);
  return { set, peers: new PeerTunnels(tokens, ctx.clock), relay: startRelay(ctx, tokens) };
}

/** The replica port: where the other replicas relay to this one (the port of `replicaUrl`). */
export async function listenForPeers(replicas: Replicas, listenAddress: string): Promise<void> {
  const port = Number(new URL(replicas.set.url).port);
  replicas.relay.server.listen(port, listenAddress);
  await once(replicas.relay.server, 'listening');
}

export async function leaveReplicas(replicas: Replicas): Promise<void> {
  replicas.peers.closeAll();
  await Promise.all([replicas.relay.close(), replicas.set.close()]);
}

/** Which of these clusters some replica (this one included) holds a tunnel for. */
export async function connectedAmong(ctx: TunnelDirectory, clusterIds: string[]): Promise<Set<string>> {
  const here = new Set(clusterIds.filter((id) => ctx.tunnels.get(id)));
  if (!ctx.replicas) return here;
  const elsewhere = await ctx.replicas.set.held(clusterIds).catch(unreadable(ctx, new Set<string>()));
  return new Set([...here, ...elsewhere]);
}

/** How long a request waits for a cluster whose replica died to land on a live one (agents redial in ~1 s). */
const failoverWaitMs = 5_000;
const failoverPollMs = 250;

/**
 * The cluster's tunnel through the replica that holds it, when another replica does. When that replica is
 * dead (its claim outlives it), the request waits a few seconds for the agent to redial and be claimed by a
 * live replica, possibly this one, rather than failing: nothing was sent yet, so any method may wait.
 */
export async function tunnelElsewhere(
  ctx: TunnelDirectory,
  clusterId: string,
): Promise<TunnelEnd | undefined> {
  if (!ctx.replicas) return undefined;
  const { set, peers } = ctx.replicas;
  const deadline = Date.now() + failoverWaitMs;
  for (;;) {
    const holder = await set.holder(clusterId).catch(unreadable(ctx, undefined));
    if (!holder || holder === set.url) return ctx.tunnels.get(clusterId)?.client;
    if (await peers.reachable(holder)) return peers.through(holder, clusterId);
    if (Date.now() + failoverPollMs > deadline) return undefined;
    await sleep(failoverPollMs);
    const here = ctx.tunnels.get(clusterId);
    if (here) return here.client;
  }
}

/** Redis away: the directory reads as empty (clusters held elsewhere look offline) and the reason is logged. */
const unreadable =
  <T>(ctx: Pick<TunnelDirectory, 'log'>, empty: T) =>
  (error: unknown): T => {
    ctx.log.warn(
      { err: { message: (error as Error).message } },
      'Redis: could not read the tunnel directory',
    );
    return empty;
  };
