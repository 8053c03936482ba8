import { cpus } from 'node:os';
import { createCluster } from '@binnacle/testkit';
import { Pool } from 'undici';
import { dialAgent, type StandIn, startStandIn } from './agent-stand-in.ts';
import { goal, goalAtLeast } from './goals.ts';
import { type LoadFigures, type LoadOptions, load } from './http-load.ts';
import { loadAverage, machine } from './machine.ts';
import { benchCpuMs, processCpuMs } from './process-cpu.ts';
import { hubCpuProfile } from './profiles.ts';
import type { BenchResult } from './run.ts';
import { type FleetFigures, measureFleet } from './tunnel-fleet.ts';
import { awaitConnected, withHub } from './tunnel-hub.ts';

/** Issue 41: tunneled GETs at c=32 carry ≥ 0.30 of the direct throughput and add ≤ 1 ms p50 at c=1. */
const ratioGoal = 0.3;
const addedP50GoalMs = 1;

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const numberArg = (args: string[], name: string, fallback: number) =>
  Number(args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const round = (value: number) => Number(value.toFixed(2));

type Plan = Omit<LoadOptions, 'path' | 'headers'>;
type Pair = { direct: LoadFigures; hub: LoadFigures; addedP50Ms: number; addedP99Ms: number; ratio: number };

const pair = (direct: LoadFigures, hub: LoadFigures): Pair => ({
  direct,
  hub,
  addedP50Ms: round(hub.p50Ms - direct.p50Ms),
  addedP99Ms: round(hub.p99Ms - direct.p99Ms),
  ratio: round(hub.perSecond / Math.max(1, direct.perSecond)),
});

/** The tunneled answer must be the agent's answer, byte for byte, before either is timed. */
async function sameAnswer(direct: Pool, hub: Pool, path: string, cookie: string, standIn: StandIn) {
  for (const [pool, p, headers] of [
    [direct, '/api/health', {}],
    [hub, path, { cookie }],
  ] as const) {
    const res = await pool.request({ method: 'GET', path: p, headers });
    const text = await res.body.text();
    if (res.statusCode !== 200 || text !== standIn.body)
      throw new Error(`GET ${p} answered ${res.statusCode}: ${text.slice(0, 300)}`);
  }
}

/**
 * The same GET /api/health on the agent stand-in, straight to its port and through the hub's
 * `/c/<cluster>/…` (session cookie, HTTP/2 stream on the agent's upgraded connection), closed-loop at high
 * concurrency and then one request at a time.
 */
async function measureOverhead(busy: Plan, sequential: Plan, nodeArgs: string[]) {
  const standIn = await startStandIn();
  try {
    return await withHub(
      busy.concurrency,
      async (session) => {
        const cluster = await createCluster(session.hub, session.owner, 'bench-overhead');
        standIn.trust(cluster.id, cluster.token);
        const agent = await dialAgent(session.hub.url, cluster.token, standIn.server, 10_000);
        const direct = new Pool(`http://127.0.0.1:${standIn.port}`, {
          connections: busy.concurrency,
          pipelining: 1,
        });
        try {
          await awaitConnected(session, [cluster.id], 10_000);
          const path = `/c/${cluster.id}/api/health`;
          await sameAnswer(direct, session.pool, path, session.owner.cookie, standIn);
          const hubMemoryBefore = await session.hub.memory();
          const cpuMs = async () => ({ hub: await processCpuMs(session.hub.pid), bench: benchCpuMs() });
          const run = async (label: string, plan: Plan, hub: boolean) => {
            const figures = hub
              ? await load(session.pool, {
                  ...plan,
                  path,
                  headers: { cookie: session.owner.cookie },
                  cpuMs,
                })
              : await load(direct, { ...plan, path: '/api/health', cpuMs });
            log(
              `  ${label}: ${figures.perSecond} req/s, p50 ${figures.p50Ms} ms, p99 ${figures.p99Ms} ms, CPU µs/request ${JSON.stringify(figures.cpuUsPerRequest)}`,
            );
            return figures;
          };
          const verifiedBefore = standIn.counts.verified;
          const concurrent = pair(
            await run(`direct c=${busy.concurrency}`, busy, false),
            await run(`via hub c=${busy.concurrency}`, busy, true),
          );
          const oneByOne = pair(
            await run('direct c=1', sequential, false),
            await run('via hub c=1', sequential, true),
          );
          // Every tunneled request reached the stand-in with an identity the hub signed for this cluster.
          const verified = standIn.counts.verified - verifiedBefore;
          if (verified < concurrent.hub.requests + oneByOne.hub.requests)
            throw new Error(`only ${verified} tunneled requests carried a verified identity`);
          return {
            bodyBytes: standIn.body.length,
            concurrent,
            sequential: oneByOne,
            verifiedIdentities: verified,
            tunnelDrops: agent.drops(),
            hubMemoryBefore,
            hubMemoryAfter: await session.hub.memory(),
          };
        } finally {
          await direct.close();
          await agent.close();
        }
      },
      { nodeArgs },
    );
  } finally {
    await standIn.close();
  }
}

/**
 * Tunnel overhead (added p50/p99 and throughput ratio against calling the agent directly) and the hub's memory
 * with many agents connected. The hub is its own `binnacle hub` process on SQLite; the load generator, the
 * agent stand-in and the dialers (the agents' side of the tunnels) share this process.
 */
export async function tunnel(args: string[]): Promise<BenchResult> {
  const concurrency = numberArg(args, 'concurrency', 32);
  const busy: Plan = {
    concurrency,
    warmupMs: numberArg(args, 'warmup', 1) * 1000,
    durationMs: numberArg(args, 'seconds', 5) * 1000,
    maxRequests: numberArg(args, 'max-requests', 500_000),
  };
  // Bounded by the count; the minute is only a backstop for a pathologically slow hub.
  const sequential: Plan = {
    concurrency: 1,
    warmupMs: 500,
    durationMs: 60_000,
    maxRequests: numberArg(args, 'sequential', 2000),
  };
  const agents = numberArg(args, 'agents', 200);
  log('tunnel overhead');
  const profile = await hubCpuProfile(args.includes('--profile'), 'tunnel');
  const overhead = await measureOverhead(busy, sequential, profile.nodeArgs);
  const hubCpu = await profile.read();
  if (hubCpu) log(`hub CPU profile ${hubCpu.file}:\n  ${hubCpu.top.join('\n  ')}`);
  log(`${agents} agents on one hub`);
  const fleet: FleetFigures = await measureFleet(agents);
  const cell = (f: LoadFigures) => `${f.perSecond} req/s (p50 ${f.p50Ms} / p99 ${f.p99Ms} ms)`;
  const latency = (f: LoadFigures) => `p50 ${f.p50Ms} / p99 ${f.p99Ms} ms`;
  const c = overhead.concurrent;
  const s = overhead.sequential;
  const m = fleet.memory;
  const cpu = cpus();
  const load = loadAverage();
  return {
    name: 'tunnel',
    summary:
      `GET /api/health (${overhead.bodyBytes} B) on an agent stand-in vs through the hub (/c/<id>/…, cookie; hub in its own process, ` +
      `load + agent side in the bench process, ${cpu.length} cores); c=${concurrency} ${busy.durationMs / 1000} s: ` +
      `direct ${cell(c.direct)}, via hub ${cell(c.hub)}, throughput ${goalAtLeast(c.ratio, ratioGoal, '× direct')}, added p50 +${c.addedP50Ms} / p99 +${c.addedP99Ms} ms, ` +
      `CPU per request direct ${c.direct.cpuUsPerRequest?.bench} µs (bench process), via hub ${c.hub.cpuUsPerRequest?.hub} µs in the hub + ${c.hub.cpuUsPerRequest?.bench} µs in the bench process; ` +
      `c=1 ${sequential.maxRequests} requests: direct ${latency(s.direct)}, via hub ${latency(s.hub)}, added p50 ${goal(s.addedP50Ms, addedP50GoalMs, 'ms')} / p99 +${s.addedP99Ms} ms; ` +
      `${fleet.agents} agents connected in ${fleet.connectMs} ms: hub (after a full GC) RSS ${m.before.rssMB} → ${m.after.rssMB} MB ` +
      `(+${fleet.perAgentKB.rss} KB/agent; JS heap + external +${fleet.perAgentKB.heap} KB/agent), ${fleet.probes.ok}/${fleet.probes.sent} probes via 5 random tunnels OK` +
      `; load average ${load.join(' ')} on ${cpu.length} cores` +
      (hubCpu ? `; hub CPU profile (${hubCpu.file}), self time: ${hubCpu.top.slice(0, 9).join(', ')}` : ''),
    data: {
      machine: machine(),
      loadAverage: load,
      plan: { busy, sequential, agents },
      overhead,
      hubCpu,
      fleet,
    },
  };
}
