/**
 * `npm run bench -- <name> [...]`: runs benchmarks against the local control plane, writes their JSON to
 * bench/results/ and appends a line to bench/README.md. With no name, lists them.
 */
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agentScale } from './agent-scale.ts';
import { auditNetpol } from './audit-netpol.ts';
import { costTraffic } from './cost-traffic.ts';
import { drainFitBench } from './drain-fit.ts';
import { fleetFanout } from './fleet-fanout.ts';
import { grepAttack } from './grep-attack.ts';
import { helmReleases } from './helm-releases.ts';
import { hubAuth } from './hub-auth.ts';
import { hubFleet } from './hub-fleet.ts';
import { hubReplicas } from './hub-replicas.ts';
import { policyImpact } from './policy-impact.ts';
import { timeTravel } from './time-travel.ts';
import { topologyLod } from './topology-lod.ts';
import { topologySse } from './topology-sse.ts';
import { tunnel } from './tunnel.ts';
import { webUi } from './web-ui.ts';

export interface BenchResult {
  name: string;
  /** One line for bench/README.md. */
  summary: string;
  data: Record<string, unknown>;
}

const benchmarks: Record<string, { about: string; run: (args: string[]) => Promise<BenchResult> }> = {
  'agent-scale': {
    about:
      'time-to-ready, RSS and responsiveness of the agent on the sample cluster and at --pods=10000 (--crds=N, --profile), vs the API server LIST time; cached bytes per object by kind',
    run: agentScale,
  },
  'topology-sse': {
    about:
      'topology build time, /api/topology and /api/resources/pods latency, SSE fan-out delay to 100 clients, at 10 000 pods',
    run: topologySse,
  },
  'time-travel': {
    about:
      'issue 42, in process with compressed time: 10 000 pods, 3 600 changes at one a second; bytes kept per change in memory and in the SQLite file, heap the history adds, a whole-cluster pod list and a namespace topology 30 min back',
    run: timeTravel,
  },
  'topology-lod': {
    about:
      'the whole-cluster topology above topologyMaxNodes at 10 000 and 50 000 generated pods, in process: level of detail, nodes, bytes, build time',
    run: topologyLod,
  },
  'drain-fit': {
    about:
      'the drain fit (ADR 0123) of 1, 10 and 100 nodes of 110 pods in a generated 1 000-node cluster, in process: median and worst time',
    run: drainFitBench,
  },
  'hub-auth': {
    about:
      'hub requests per second and p50/p99 with a session cookie and with a PAT (and unauthenticated), SQLite and PostgreSQL',
    run: hubAuth,
  },
  'web-ui': {
    about:
      'issue 38: the Pods table at --pods=50000 in Chromium against the bundled agent (first row, a change shown, scroll frames, JS heap, first-page scripts over the wire), bytes per minute with 10 000 pods open and a change a second; topology render (--topology=false skips it)',
    run: webUi,
  },
  'helm-releases': {
    about:
      'Helm release list and detail latency at 200 releases × 10 revisions, and upgrade-check against both chart sources (cold and warm)',
    run: helmReleases,
  },
  'audit-netpol': {
    about:
      'the best-practice audit at 10 000 pods (full, unchanged, and the re-check after one pod changes) and the NetworkPolicy reachability matrix of 200 pods under 20 policies, in process',
    run: auditNetpol,
  },
  'policy-impact': {
    about:
      'issue 44, in process: which of 10 000 observed flow pairs a NetworkPolicy change newly denies or allows, over 200 policies (goal ≤ 500 ms)',
    run: policyImpact,
  },
  'cost-traffic': {
    about:
      "the cost and traffic-flow routes at 10 000 pods with 24 h of 30 s series in VictoriaMetrics: load time, then p50/p99/worst (cold apart) of the cost summary, workloads, trend and each source's flows",
    run: costTraffic,
  },
  'fleet-fanout': {
    about:
      'GET /api/fleet/problems p50/p99 on a hub with 1, 10 and 50 clusters connected over real tunnels to agent stand-ins',
    run: fleetFanout,
  },
  'hub-replicas': {
    about:
      'three hub processes on PostgreSQL + Redis behind HAProxy with 1 000 agent stand-ins under load: one replica SIGKILLed, time until every cluster answers again, requests lost, throughput before and after',
    run: hubReplicas,
  },
  'hub-fleet': {
    about:
      'issue 41: 1 000 agents dialing one hub process at once (time until connected, hub RSS before, while and after; goal ≤ 1 GB) and every fleet view one at a time over 1 000 and 100 clusters (goal: problems p50 ≤ 1 s at 100)',
    run: hubFleet,
  },
  'grep-attack': {
    about:
      '/api/health p50/p99/worst while get_pod_logs runs catastrophic grep patterns over 2 000 log lines (goal: worst ≤ 100 ms)',
    run: grepAttack,
  },
  tunnel: {
    about:
      'tunnel overhead (added p50/p99, throughput ratio) against calling the agent directly, and hub RSS with 200 agents',
    run: tunnel,
  },
};

const [name, ...args] = process.argv.slice(2);
const bench = name ? benchmarks[name] : undefined;
if (!bench) {
  process.stdout.write(
    `usage: npm run bench -- <name>\n\n${Object.entries(benchmarks)
      .map(([n, b]) => `  ${n.padEnd(16)} ${b.about}`)
      .join('\n')}\n`,
  );
  process.exit(name ? 2 : 0);
}
const result = await bench.run(args);
const stamp = new Date().toISOString();
const dir = join(import.meta.dirname, 'results');
await mkdir(dir, { recursive: true });
const file = join(dir, `${result.name}-${stamp.replace(/[:.]/g, '-')}.json`);
await writeFile(file, `${JSON.stringify({ ...result, at: stamp, node: process.version }, null, 2)}\n`);
await appendFile(
  join(import.meta.dirname, 'README.md'),
  `| ${stamp.slice(0, 16)} | ${result.name} | ${result.summary} |\n`,
);
process.stdout.write(`${result.summary}\nwrote ${file}\n`);
process.exit(0);
