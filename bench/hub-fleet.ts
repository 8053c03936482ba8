import { cpus } from 'node:os';
import { type StandIn, startStandIn } from './agent-stand-in.ts';
import { fleetAgentAnswers, fleetViews, sampleFleetView, type ViewFigures } from './fleet-views.ts';
import { goal } from './goals.ts';
import { send } from './hub-owner.ts';
import { loadAverage, machine } from './machine.ts';
import { cpuSpent } from './process-cpu.ts';
import { hubCpuProfile } from './profiles.ts';
import { inBatches } from './replica-probes.ts';
import type { BenchResult } from './run.ts';
import { openFleet } from './tunnel-fleet.ts';
import { awaitConnected, type HubSession, withHub } from './tunnel-hub.ts';

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const numberArg = (args: string[], name: string, fallback: number) =>
  Number(args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);

/** Issue 41's goals for the hub: 1 000 agents within 1 GB of RSS, a 100-cluster fan-out within a second. */
const rssGoalMB = 1024;
const fanOutGoalMs = 1000;
/**
 * Per view and size, waits for the caller's fan-out bucket included: 30 calls a minute, so a view may wait
 * most of a minute before its first answer.
 */
const maxSecondsPerView = 150;
const removeBatch = 8;

type Plan = { problems: number; others: number };

interface ViewRun extends ViewFigures {
  /** CPU time per call of the hub process and of this one (dialers' side, stand-in, load). */
  cpuMsPerCall: { hub: number; bench: number };
}

/** Every fleet view one request at a time over the clusters connected now: `problems` times the first, `others` the rest. */
async function measureViews(session: HubSession, clusters: number, plan: Plan): Promise<ViewRun[]> {
  const runs: ViewRun[] = [];
  for (const path of fleetViews) {
    const samples = path === '/api/fleet/problems' ? plan.problems : plan.others;
    const cpu = await cpuSpent(session.hub.pid);
    const figures = await sampleFleetView(session.pool, session.owner.cookie, path, clusters, {
      samples,
      maxSeconds: maxSecondsPerView,
    });
    const spent = await cpu();
    const perCall = (value: number) => Math.round(value / figures.requests);
    const run = { ...figures, cpuMsPerCall: { hub: perCall(spent.hubMs), bench: perCall(spent.benchMs) } };
    log(
      `${clusters} clusters ${path}: p50 ${run.p50Ms} / p99 ${run.p99Ms} / worst ${run.maxMs} ms (${run.requests}; waited ${run.waitedMs} ms for the bucket), CPU per call hub ${run.cpuMsPerCall.hub} ms, bench ${run.cpuMsPerCall.bench} ms`,
    );
    runs.push(run);
  }
  return runs;
}

/** `/api/fleet/problems` → `problems`, for the summary. */
const viewName = (path: string) => path.replace(/^\/api\/fleet\//, '').replace(/\?.*$/, '');
const cells = (runs: ViewRun[]) =>
  runs
    .map((r) => `${viewName(r.path)} p50 ${r.p50Ms} / p99 ${r.p99Ms} / worst ${r.maxMs} ms (${r.requests})`)
    .join(', ');

/**
 * Issue 41's hub goals on one `binnacle hub` process (SQLite): `--agents` clusters registered over the API and
 * as many agents dialing at once (real `dialHub` tunnels to one stand-in answering every route the fleet
 * views ask), the hub's memory before, while and after they connect; every fleet view one request at a time
 * over all of them, then, their agents closed and their clusters removed, over `--small` of them. Dialers,
 * stand-in and load share this process; `--profile` runs the hub under `--cpu-prof`.
 */
export async function hubFleet(args: string[]): Promise<BenchResult> {
  const count = numberArg(args, 'agents', 1000);
  const small = numberArg(args, 'small', 100);
  const samples = numberArg(args, 'samples', 30);
  const others = numberArg(args, 'view-samples', 5);
  const largePlan = { problems: Math.ceil(samples / 3), others: Math.ceil(others / 2) };
  const smallPlan = { problems: samples, others };
  if (!(small > 0 && small < count))
    throw new Error(`--small=${small} must be between 0 and --agents=${count}`);
  const loadAtStart = loadAverage();
  const profile = await hubCpuProfile(args.includes('--profile'), 'hub-fleet');
  const standIn = await startStandIn(fleetAgentAnswers());
  log(`${count} agents on one hub process, then every fleet view over ${count} and ${small} clusters`);
  let run: Awaited<ReturnType<typeof measureFleet>>;
  try {
    run = await withHub(
      removeBatch,
      (session) => measureFleet(session, standIn, count, small, { large: largePlan, small: smallPlan }),
      { nodeArgs: profile.nodeArgs },
    );
  } finally {
    await standIn.close();
  }
  const hubCpu = await profile.read();
  if (hubCpu) log(`hub CPU profile ${hubCpu.file}:\n  ${hubCpu.top.join('\n  ')}`);
  const c = run.connect;
  const m = c.memory;
  const problems = run.small.find((r) => r.path === '/api/fleet/problems') as ViewRun;
  const loadAtEnd = loadAverage();
  return {
    name: 'hub-fleet',
    summary:
      `one hub process (SQLite), ${count} clusters registered over the API in ${c.createClustersMs} ms, ${count} agents dialing at once ` +
      `(dialers, stand-in and load in the bench process, ${cpus().length} cores): all listed as connected ${c.connectMs} ms after the first dial ` +
      `(CPU meanwhile: hub ${c.connectCpu.hubMs} ms, bench process ${c.connectCpu.benchMs} ms); hub RSS fresh ${run.fresh.rssMB} MB, ` +
      `${count} clusters registered ${m.before.rssMB} MB, while connecting up to ${m.whileConnecting.peakRssMB} MB, all connected ${m.after.rssMB} MB ` +
      `(each after a full GC; JS heap ${m.before.heapUsedMB} → ${m.after.heapUsedMB} MB, +${c.perAgentKB.rss} KB RSS/agent), ` +
      `peak with all connected and their fan-outs ${goal(run.peakMB, rssGoalMB, 'MB')} (VmHWM); ` +
      `fleet views one at a time over ${count} clusters: ${cells(run.large)}; ` +
      `over ${small} (the others' agents closed, clusters removed): problems p50 ${goal(problems.p50Ms, fanOutGoalMs, 'ms')}, ${cells(run.small)}; ` +
      `hub CPU per problems call ${run.large[0]?.cpuMsPerCall.hub} ms at ${count}, ${problems.cpuMsPerCall.hub} ms at ${small} (bench process ${run.large[0]?.cpuMsPerCall.bench} / ${problems.cpuMsPerCall.bench} ms); ` +
      `${run.drops} tunnel drops; load average ${loadAtStart.join(' ')} at the start, ${loadAtEnd.join(' ')} at the end` +
      (hubCpu ? `; hub CPU profile (${hubCpu.file}), self time: ${hubCpu.top.slice(0, 9).join(', ')}` : ''),
    data: {
      machine: machine(),
      plan: { agents: count, small, large: largePlan, smallPlan, maxSecondsPerView },
      goals: { rssMB: rssGoalMB, fanOutP50Ms: fanOutGoalMs },
      ...run,
      hubCpu,
      loadAverage: { start: loadAtStart, end: loadAtEnd },
    },
  };
}

/** The fleet opened, measured over all of it, shrunk to `small` clusters and measured again; closed after. */
async function measureFleet(
  session: HubSession,
  standIn: StandIn,
  count: number,
  small: number,
  plans: { large: Plan; small: Plan },
) {
  const fresh = await session.hub.memory();
  const fleet = await openFleet(session, standIn, count);
  try {
    log(
      `${count} agents connected in ${fleet.figures.connectMs} ms; hub RSS ${fleet.figures.memory.after.rssMB} MB after a full GC`,
    );
    const large = await measureViews(session, count, plans.large);
    const afterLarge = await session.hub.memory();
    // The kernel's peak so far: every agent connected and every view fanned out over all of them.
    const peakMB = afterLarge.hwmMB;
    const leaving = fleet.agents.splice(small);
    const removed = fleet.clusters.splice(small);
    await Promise.all(leaving.map((agent) => agent.close()));
    await inBatches(removed, removeBatch, async (cluster) => {
      const answer = await send(session.pool, 'DELETE', `/api/clusters/${cluster.id}`, { ...session.owner });
      if (answer.status !== 204 && answer.status !== 200)
        throw new Error(`DELETE /api/clusters/${cluster.id} answered ${answer.status}: ${answer.text}`);
    });
    await awaitConnected(
      session,
      fleet.clusters.map((c) => c.id),
      30_000,
    );
    const listed = await send(session.pool, 'GET', '/api/clusters', { cookie: session.owner.cookie });
    const left = (JSON.parse(listed.text) as { items: unknown[] }).items.length;
    if (left !== small) throw new Error(`${left} clusters listed after removing down to ${small}`);
    const smallRuns = await measureViews(session, small, plans.small);
    return {
      fresh,
      connect: fleet.figures,
      large,
      afterLarge,
      peakMB,
      small: smallRuns,
      afterSmall: await session.hub.memory(),
      drops: fleet.drops(),
    };
  } finally {
    await fleet.close();
  }
}
