import { cpus, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { createCluster, type HubReplica, signInOwner, spawnHubReplicas } from '@binnacle/testkit';
import { Redis } from 'ioredis';
import { Pool } from 'undici';
import { type Agent, dialAgent, startStandIn } from './agent-stand-in.ts';
import { goal } from './goals.ts';
import { machine } from './machine.ts';
import { type Finished, SpreadLoad, type Window } from './replica-load.ts';
import { everyClusterAnswers, holders, inBatches, reclaimed, recoveryTimeoutMs } from './replica-probes.ts';
import type { BenchResult } from './run.ts';

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const numberArg = (args: string[], name: string, fallback: number) =>
  Number(args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const since = (from: number) => Math.round(performance.now() - from);
/** The issue's goal: every cluster reachable again within 35 s of a replica's death. */
const reconnectGoalMs = 35_000;

const countBy = (finished: Finished[]) =>
  Object.fromEntries(
    [...new Set(finished.map((f) => f.outcome))].map((o) => [
      o,
      finished.filter((f) => f.outcome === o).length,
    ]),
  );

async function registerAndDial(lbUrl: string, count: number) {
  const owner = await signInOwner({ url: lbUrl, publicUrl: lbUrl });
  const standIn = await startStandIn();
  const created = performance.now();
  const clusters = await inBatches(Array.from({ length: count }), 8, (_item, i) =>
    createCluster({ url: lbUrl }, owner, `bench-replica-${String(i).padStart(4, '0')}`),
  );
  for (const cluster of clusters) standIn.trust(cluster.id, cluster.token);
  const createMs = since(created);
  const dialed = performance.now();
  const agents: Agent[] = [];
  try {
    await inBatches(clusters, 50, async (cluster) => {
      agents.push(await dialAgent(lbUrl, cluster.token, standIn.server, 60_000));
    });
  } catch (error) {
    await Promise.all(agents.map((agent) => agent.close()));
    await standIn.close();
    throw error;
  }
  return { owner, standIn, ids: clusters.map((c) => c.id), agents, createMs, dialMs: since(dialed) };
}

const cell = (w: Window) => `${w.perSecond} req/s (p50 ${w.p50Ms} / p99 ${w.p99Ms} ms)`;

/**
 * Three `binnacle hub` processes on PostgreSQL + Redis behind HAProxy, `--agents` agent stand-ins (real
 * tunnels, dialed through HAProxy, one shared stand-in server), GETs spread over every cluster through HAProxy
 * at `--concurrency`; then the replica holding the most tunnels is SIGKILLed under that load.
 */
export async function hubReplicas(args: string[]): Promise<BenchResult> {
  const count = numberArg(args, 'agents', 1000);
  const concurrency = numberArg(args, 'concurrency', 32);
  const windowMs = numberArg(args, 'seconds', 5) * 1000;
  log(`three replicas, PostgreSQL, Redis, HAProxy; ${count} agents`);
  const set = await spawnHubReplicas({ count: 3 });
  const lbUrl = set.balancer.url;
  const redis = new Redis(set.redis.url, { maxRetriesPerRequest: 1 });
  const pool = new Pool(lbUrl, { connections: concurrency, pipelining: 1 });
  const probes = new Pool(lbUrl, { connections: 32, pipelining: 1 });
  let fleet: Awaited<ReturnType<typeof registerAndDial>> | undefined;
  try {
    fleet = await registerAndDial(lbUrl, count);
    const { owner, standIn, ids } = fleet;
    log(`${count} clusters created in ${fleet.createMs} ms, dialed in ${fleet.dialMs} ms`);
    const reachable = await everyClusterAnswers(probes, ids, owner.cookie, performance.now());
    if (reachable.unanswered > 0) throw new Error(`${reachable.unanswered} clusters never answered`);
    const held = await holders(redis, ids);
    const byReplica = set.replicas.map((r) => ({
      name: r.name,
      tunnels: held.filter((u) => u === r.replicaUrl).length,
    }));
    const victim = set.replicas.reduce((a, b) =>
      held.filter((u) => u === b.replicaUrl).length > held.filter((u) => u === a.replicaUrl).length ? b : a,
    ) as HubReplica;
    const victimIds = new Set(ids.filter((_id, i) => held[i] === victim.replicaUrl));
    log(
      `tunnels per replica ${JSON.stringify(byReplica)}; load c=${concurrency}, then SIGKILL ${victim.name}`,
    );

    const load = new SpreadLoad(pool, ids, owner.cookie, standIn.body);
    load.start(concurrency);
    await sleep(1_000);
    const baselineFrom = performance.now();
    await sleep(windowMs);
    const killAt = performance.now();
    const inFlight = [...load.inFlight.values()];
    await victim.hub.kill();
    // The dead replica's clusters are asked in rounds until each answers; the others, which never went
    // away, are swept once after, so the figure is not the time one round over 1 000 clusters takes.
    const [recovery, reclaimMs] = await Promise.all([
      everyClusterAnswers(probes, [...victimIds], owner.cookie, killAt),
      reclaimed(redis, [...victimIds], victim.replicaUrl, killAt),
    ]);
    const sweep = await everyClusterAnswers(probes, ids, owner.cookie, performance.now());
    const unanswered = recovery.unanswered + sweep.unanswered;
    const everyMs = unanswered > 0 ? recoveryTimeoutMs : recovery.ms + (sweep.rounds > 1 ? sweep.ms : 0);
    log(
      `the dead replica's clusters answered again ${recovery.ms} ms after the kill (${recovery.unanswered} never did); ` +
        `sweep of all ${ids.length}: ${sweep.ms} ms, ${sweep.rounds} round(s), ${sweep.unanswered} unanswered`,
    );
    const afterFrom = performance.now() + 1_000;
    await sleep(1_000 + windowMs);
    const afterTo = performance.now();
    const { undrained } = await load.stop(10_000);

    const failed = load.finished.filter((f) => f.outcome !== 'ok');
    const lostBefore = failed.filter((f) => f.ended < killAt);
    const lostInFlight = failed.filter((f) => f.attemptStarted < killAt && f.ended >= killAt);
    const lostAfter = failed.filter((f) => f.attemptStarted >= killAt);
    const refused = load.finished.filter((f) => f.refusals > 0);
    const refusals = refused.reduce((sum, f) => sum + f.refusals, 0);
    const before = load.window(baselineFrom, killAt);
    const after = load.window(afterFrom, afterTo);
    const atKill = {
      total: inFlight.length,
      forClustersOfTheDeadReplica: inFlight.filter((f) => victimIds.has(f.clusterId)).length,
    };
    const lostOutcomes = countBy(failed);
    return {
      name: 'hub-replicas',
      summary:
        `3 hub processes (PostgreSQL + Redis) behind HAProxy, ${count} agent stand-ins dialed through it ` +
        `(tunnels per replica ${byReplica.map((r) => r.tunnels).join('/')}), GET /c/<id>/api/health spread over every cluster at c=${concurrency}: ` +
        `before ${cell(before)}; SIGKILL of ${victim.name} holding ${victimIds.size} tunnels with ${atKill.total} requests in flight ` +
        `(${atKill.forClustersOfTheDeadReplica} for its clusters): its clusters answer again through HAProxy after ` +
        `${goal(everyMs, reconnectGoalMs, 'ms')}${unanswered ? ` (${unanswered} never did within ${recoveryTimeoutMs} ms)` : ''} (Redis names a survivor for all of them after ${reclaimMs} ms; then all ` +
        `${ids.length} answered in ${sweep.rounds === 1 ? 'one sweep' : `${sweep.rounds} sweeps`}); ` +
        `failed without a retryable answer: ${lostBefore.length} before the kill, ${lostInFlight.length} in flight at it, ${lostAfter.length} sent after it ` +
        `(goal 0${lostAfter.length ? `; sent ${lostAfter.map((f) => Math.round(f.attemptStarted - killAt)).join(', ')} ms after it` : ''}) ` +
        `${JSON.stringify(lostOutcomes)}; ${refusals} refusals 503 cluster_offline + Retry-After on ${refused.length} requests, ` +
        `retried and answered${undrained ? ` (${undrained} still waiting at the end)` : ''}; after (2 replicas) ${cell(after)}; ` +
        `load average ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')} on ${cpus().length} cores`,
      data: {
        machine: machine(),
        plan: { agents: count, concurrency, windowMs },
        createClustersMs: fleet.createMs,
        dialMs: fleet.dialMs,
        firstReachableMs: reachable.ms,
        tunnelsPerReplica: byReplica,
        victim: { name: victim.name, tunnels: victimIds.size },
        inFlightAtKill: atKill,
        recovery: {
          deadReplicaClusters: recovery,
          everyMs,
          goalMs: reconnectGoalMs,
          redisReclaimedMs: reclaimMs,
          sweep,
        },
        lost: {
          beforeKill: lostBefore.length,
          beforeKillAtMs: lostBefore.map((f) => Math.round(f.attemptStarted - killAt)),
          beforeKillByOutcome: countBy(lostBefore),
          inFlightAtKill: lostInFlight.length,
          sentAfterKill: lostAfter.length,
          byOutcome: lostOutcomes,
          sentAfterKillByOutcome: countBy(lostAfter),
          // How soon after the kill those were sent: within a few ms, the survivors had not yet seen it.
          sentAfterKillAtMs: lostAfter.map((f) => Math.round(f.attemptStarted - killAt)),
          sentAfterKillForItsClusters: lostAfter.filter((f) => victimIds.has(f.clusterId)).length,
        },
        refusals: { answers: refusals, requests: refused.length, undrained },
        before,
        after,
        answered: load.finished.length,
        tunnelDrops: fleet.agents.reduce((sum, a) => sum + a.drops(), 0),
        loadAverage: loadavg(),
        haproxyLog: set.balancer.logTail(20),
        // What each replica logged (warnings and worse), the dead one until its death: the reasons behind failures.
        replicaLogs: Object.fromEntries(set.replicas.map((r) => [r.name, r.hub.logTail().slice(-3000)])),
      },
    };
  } finally {
    await Promise.all([pool.close(), probes.close()]);
    await Promise.all(fleet?.agents.map((agent) => agent.close()) ?? []);
    await fleet?.standIn.close();
    redis.disconnect();
    await set.stop();
  }
}
