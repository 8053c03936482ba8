import { execFileSync, spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ClusterState, freePort, repoRoot, waitUntil } from '@binnacle/testkit';
import type { KubeClient } from '../packages/agent/src/kube/client.ts';
import { collectionPath, discover } from '../packages/agent/src/kube/discovery.ts';
import type { KubeList } from '../packages/agent/src/kube/objects.ts';
import { tierOf } from '../packages/agent/src/kube/tiers.ts';
import { buildSingleExecutable } from '../scripts/build-sea.ts';
import { spawnAgent } from './bundle-agent.ts';
import { cacheBytesByKind } from './cache-bytes.ts';
import { goal } from './goals.ts';
import { createCustomResources, createPods, loadCluster } from './load.ts';
import { loadAverage, machine } from './machine.ts';
import { memoryOf } from './process-memory.ts';
import { saveCpuProfile, saveHeapSnapshot, topFunctions, topRetainers } from './profiles.ts';
import { type MixResult, quantile, serveRequestMix } from './request-mix.ts';
import type { BenchResult } from './run.ts';

const runs = 3;
const median = (values: number[]) => quantile(values, 0.5);
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

/**
 * Wall time for the API server to LIST (paged, 500 a page) every kind of a tier in parallel, as the agent does:
 * from etcd, or from the API server's watch cache (resourceVersion 0, the agent's first LIST).
 */
async function listTime(
  client: KubeClient,
  tiers: string[],
  fromCache = false,
): Promise<{ ms: number; objects: number }> {
  const resources = (await discover(client)).filter((r) => tiers.includes(tierOf(r) ?? ''));
  const started = performance.now();
  const counts = await Promise.all(
    resources.map(async (r) => {
      let count = 0;
      let token: string | undefined;
      do {
        const page = await client.request<KubeList>({
          path: collectionPath(r),
          query: { limit: 500, continue: token, resourceVersion: fromCache && !token ? '0' : undefined },
        });
        count += page.items?.length ?? 0;
        token = page.metadata?.continue || undefined;
      } while (token);
      return count;
    }),
  );
  return { ms: performance.now() - started, objects: counts.reduce((a, b) => a + b, 0) };
}

interface AgentRun {
  listeningMs: number;
  coreReadyMs: number;
  allSyncedMs: number;
  /** RSS when the core tier (pods among it) has synced. */
  rssReadyMB: number;
  /** RSS 2 s after every tier synced. */
  rssMB: number;
  /** The highest RSS the process reached (VmHWM), request mix included. */
  peakMB: number;
  /** RSS `settle` seconds after the request mix, when asked for. */
  rssSettledMB?: number;
  heapUsedMB: number;
  objects: number;
  /** /api/health while the agent syncs: p99 and worst answer time (is it responsive while it loads?). */
  healthP99Ms: number;
  healthWorstMs: number;
  /** After the sync, in the run that waits for the settled RSS: what a UI and an assistant ask for. */
  mix?: MixResult;
  profiles?: { cpu: string; heap: string };
}

/**
 * The release bundle (`npm run build:cli`), the TypeScript sources run directly, as `npm start` does, or the single
 * executable (`npm run build:sea`), run as users run it.
 */
type Entry = 'bundle' | 'source' | 'sea';
const entryFiles: Record<Entry, string> = {
  bundle: resolve(repoRoot, 'packages/cli/dist/binnacle.js'),
  source: resolve(repoRoot, 'packages/cli/src/binnacle.ts'),
  sea: resolve(repoRoot, 'packages/cli/dist-sea/binnacle'),
};

/** How to start an entry: node with its options and the entry file, or the executable alone. */
const command = (entry: Entry, nodeOptions: string[]): [string[], string] =>
  entry === 'sea' ? [[], entryFiles.sea] : [[...nodeOptions, entryFiles[entry]], process.execPath];

/**
 * The floor: a bare Node process on this machine that answers HTTP, timed from spawn to its first answer, with
 * its RSS then.
 */
async function nodeFloor(): Promise<{ readyMs: number; rssMB: number }> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ['-e', `require('node:http').createServer((q, r) => r.end('{}')).listen(${port}, '127.0.0.1')`],
    { stdio: 'ignore' },
  );
  try {
    await waitUntil(
      'a bare node process to answer',
      async () => Boolean(await fetch(`http://127.0.0.1:${port}/`).catch(() => undefined)),
      { timeoutMs: 10_000, intervalMs: 2 },
    );
    const readyMs = Math.round(performance.now() - started);
    return { readyMs, rssMB: (await memoryOf(child.pid)).rssMB };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.on('exit', r));
  }
}

interface RunOptions {
  settleSeconds: number;
  nodeOptions: string[];
  /** Serve the request mix once synced (then wait `settleSeconds`). */
  probe?: boolean;
  /** Profile the run: a CPU profile of `cpuSeconds` from the moment it listens, a heap snapshot once synced. */
  profile?: { name: string; cpuSeconds: number };
}

const timedFetch = async (url: string) => {
  const started = performance.now();
  const res = await fetch(url);
  const body = await res.text();
  return { ms: performance.now() - started, status: res.status, body };
};

/** Starts `binnacle agent` as its own process and times it until every tier has synced. */
async function agentRun(state: ClusterState, entry: Entry, options: RunOptions): Promise<AgentRun> {
  const [entryArgs, executable] = command(entry, options.nodeOptions);
  const { child, url, dataDir, started } = await spawnAgent(entryArgs, state.kubeconfigs.admin, executable);
  const marks: Partial<AgentRun> = {};
  const healthTimes: number[] = [];
  let cpuProfile: Promise<string> | undefined;
  try {
    let health:
      | {
          sync: { ready: boolean; tiers: { state: string }[] };
          resourceCount: number;
          runtime: { heapUsedMB: number };
        }
      | undefined;
    await waitUntil(
      'the benchmarked agent to sync',
      async () => {
        const answer = await timedFetch(`${url}/api/health`).catch(() => undefined);
        if (!answer) return false;
        if (marks.listeningMs === undefined) {
          marks.listeningMs = performance.now() - started;
          if (options.profile)
            cpuProfile = saveCpuProfile(url, options.profile.cpuSeconds, `${options.profile.name}-sync`);
        } else healthTimes.push(answer.ms);
        health = JSON.parse(answer.body) as typeof health;
        if (health?.sync.ready && marks.coreReadyMs === undefined) {
          marks.coreReadyMs = performance.now() - started;
          marks.rssReadyMB = (await memoryOf(child.pid)).rssMB;
        }
        return Boolean(health?.sync.tiers.every((t) => t.state === 'synced'));
      },
      { timeoutMs: 600_000, intervalMs: 10 },
    );
    marks.allSyncedMs = performance.now() - started;
    await sleep(2000);
    health = (await (await fetch(`${url}/api/health`)).json()) as typeof health;
    const synced = await memoryOf(child.pid);
    const mix = options.probe ? await serveRequestMix(url, child.pid) : undefined;
    let rssSettledMB: number | undefined;
    if (options.settleSeconds > 0) {
      await sleep(options.settleSeconds * 1000);
      rssSettledMB = (await memoryOf(child.pid)).rssMB;
    }
    let profiles: AgentRun['profiles'];
    if (options.profile && cpuProfile)
      profiles = { cpu: await cpuProfile, heap: await saveHeapSnapshot(url, options.profile.name) };
    return {
      listeningMs: marks.listeningMs ?? 0,
      coreReadyMs: marks.coreReadyMs ?? 0,
      allSyncedMs: marks.allSyncedMs,
      rssReadyMB: marks.rssReadyMB ?? 0,
      rssMB: synced.rssMB,
      peakMB: (await memoryOf(child.pid)).peakMB,
      rssSettledMB,
      heapUsedMB: health?.runtime.heapUsedMB ?? 0,
      objects: health?.resourceCount ?? 0,
      healthP99Ms: Math.round(quantile(healthTimes, 0.99)),
      healthWorstMs: Math.round(Math.max(0, ...healthTimes)),
      mix,
      profiles,
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.on('exit', r));
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function scenario(state: ClusterState, client: KubeClient, entry: Entry, options: RunOptions) {
  const timed = async (tiers: string[], fromCache: boolean) => {
    const results = [];
    for (let i = 0; i < runs; i += 1) results.push(await listTime(client, tiers, fromCache));
    return { ms: Math.round(median(results.map((r) => r.ms))), objects: results[0]?.objects ?? 0 };
  };
  const core = await timed(['core'], false);
  const coreCached = await timed(['core'], true);
  const all = await timed(['core', 'deferred', 'custom'], false);
  const allCached = await timed(['core', 'deferred', 'custom'], true);
  const agents: AgentRun[] = [];
  // The last run also serves the request mix, then waits for the memory the agent gives back after it.
  for (let i = 0; i < runs; i += 1) {
    const last = i === runs - 1;
    agents.push(
      await agentRun(state, entry, {
        ...options,
        settleSeconds: last ? options.settleSeconds : 0,
        probe: last,
        profile: undefined,
      }),
    );
  }
  const pick = (key: keyof AgentRun) => median(agents.map((a) => Number(a[key])));
  // Profiling slows the process it profiles: its own run, outside the medians, sized to cover the sync.
  const profiled = options.profile
    ? await agentRun(state, entry, {
        ...options,
        settleSeconds: 0,
        profile: { ...options.profile, cpuSeconds: Math.ceil(pick('allSyncedMs') / 1000) + 1 },
      })
    : undefined;
  return {
    apiServer: {
      listCoreMs: core.ms,
      listCoreFromCacheMs: coreCached.ms,
      listAllMs: all.ms,
      listAllFromCacheMs: allCached.ms,
      objects: all.objects,
    },
    agent: {
      listeningMs: Math.round(pick('listeningMs')),
      coreReadyMs: Math.round(pick('coreReadyMs')),
      allSyncedMs: Math.round(pick('allSyncedMs')),
      rssReadyMB: pick('rssReadyMB'),
      rssMB: pick('rssMB'),
      // The highest of the runs: the last one served the request mix.
      peakMB: Math.max(...agents.map((a) => a.peakMB)),
      rssSettledMB: agents.at(-1)?.rssSettledMB,
      heapUsedMB: pick('heapUsedMB'),
      objects: pick('objects'),
      healthP99Ms: pick('healthP99Ms'),
      healthWorstMs: Math.max(...agents.map((a) => a.healthWorstMs)),
      mix: agents.at(-1)?.mix,
    },
    runs: agents,
    profiled,
  };
}

/**
 * Memory against issue 41's goals: at 10 000 pods ≤ 250 MB at ready, while serving the mix (its highest sample),
 * right after it and `settle` seconds later, peak ≤ 300 MB; at 50 000 pods a peak ≤ 700 MB.
 */
function memoryLine(
  pods: number,
  agent: { rssReadyMB: number; peakMB: number; heapUsedMB: number; rssSettledMB?: number; mix?: MixResult },
  settle: number,
): string {
  const steady = (mb: number) => (pods <= 10_000 ? goal(mb, 250, 'MB') : `${mb} MB`);
  const { mix } = agent;
  return [
    `RSS at ready ${steady(agent.rssReadyMB)}`,
    ...(mix
      ? [
          `while serving ${steady(mix.rssDuringMB)} (anonymous ${mix.rssDuringAnonMB}, file-backed ${mix.rssDuringFileMB} MB; heap in use up to ${mix.heapUsedDuringMB} MB)`,
          `right after ${steady(mix.rssAfterMB)}`,
        ]
      : []),
    ...(agent.rssSettledMB !== undefined ? [`${settle} s later ${steady(agent.rssSettledMB)}`] : []),
    `peak ${goal(agent.peakMB, pods <= 10_000 ? 300 : 700, 'MB')}; heap ${agent.heapUsedMB} MB once synced`,
  ].join(', ');
}

/** The request mix's answer times; the dashboard's p50 against its goal (≤ 50 ms at 10 000 pods, ≤ 200 ms at 50 000). */
function mixLine(pods: number, mix: MixResult): string {
  const { podList, podSummary, topology, dashboard } = mix.routes;
  const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
  return `${mix.rounds} rounds of the request mix, p50 / worst: full pod list ${podList.p50Ms} / ${podList.worstMs} ms (${kb(podList.bytes)}), summary list ${podSummary.p50Ms} / ${podSummary.worstMs} ms (${kb(podSummary.bytes)}), whole-cluster topology ${topology.p50Ms} / ${topology.worstMs} ms (${kb(topology.bytes)}), dashboard ${goal(dashboard.p50Ms, pods <= 10_000 ? 50 : 200, 'ms')} / ${dashboard.worstMs} ms (${kb(dashboard.bytes)})`;
}

const loadLine = (atStart: number[]) =>
  `load average ${atStart.join(' ')} at the start, ${loadAverage().join(' ')} at the end on ${machine().cores} cores`;

/** What the profiles of a run show: the top self-time functions of the sync and the heap by constructor. */
async function profileLines(run: AgentRun | undefined): Promise<string[]> {
  if (!run?.profiles) return [];
  const relativeTo = (file: string) => file.slice(repoRoot.length + 1);
  return [
    `CPU profile of the sync (${relativeTo(run.profiles.cpu)}), self time: ${(await topFunctions(run.profiles.cpu, 8)).join(', ')}`,
    `heap snapshot once synced (${relativeTo(run.profiles.heap)}), self size: ${(await topRetainers(run.profiles.heap, 8)).join(', ')}`,
  ];
}

export async function agentScale(args: string[]): Promise<BenchResult> {
  const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const pods = Number(option('pods') ?? 10_000);
  const crds = Number(option('crds') ?? 0);
  // Simulated nodes (default one per 100 pods).
  const nodes = option('nodes') ? Number(option('nodes')) : undefined;
  const settleSeconds = Number(option('settle') ?? 60);
  const entry = (option('entry') ?? 'bundle') as Entry;
  // V8 flags for the agent's process, e.g. --node-options=--max-semi-space-size=4 (comma-separated).
  const nodeOptions = option('node-options')?.split(',').filter(Boolean) ?? [];
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const profile = args.includes('--profile')
    ? { name: `agent-scale-${pods}-${stamp}`, cpuSeconds: 0 }
    : undefined;
  if (!(entry in entryFiles)) throw new Error(`--entry must be bundle, source or sea, not ${entry}`);
  if (entry === 'bundle') {
    log('building the release bundle (npm run build:cli)');
    execFileSync('npm', ['run', '--silent', 'build:cli'], { cwd: repoRoot, stdio: 'ignore' });
  }
  if (entry === 'sea') {
    log('building the single executable (npm run build:sea)');
    await buildSingleExecutable(entryFiles.sea);
    // Its first start unpacks the payload once; users pay that once too, not at every start.
    execFileSync(entryFiles.sea, ['--help'], { stdio: 'ignore' });
  }
  const loadAtStart = loadAverage();
  const floor = await nodeFloor();
  log(`a bare node process: ${floor.readyMs} ms to its first answer, RSS ${floor.rssMB} MB`);
  return loadCluster(
    pods,
    async (state, client) => {
      log(`measuring the sample cluster (${entry})`);
      const sampleOnly = pods === 0 && crds === 0;
      // `--profile` profiles the sample when it is all there is to measure.
      const sample = await scenario(state, client, entry, {
        settleSeconds: 0,
        nodeOptions,
        profile: sampleOnly ? profile : undefined,
      });
      const lines = [
        `${[entry, ...nodeOptions].join(' ')}; bare node ${floor.readyMs} ms, ${floor.rssMB} MB`,
        `sample (${sample.agent.objects} objects): ready ${goal(sample.agent.coreReadyMs, 400, 'ms')}, RSS at ready ${goal(sample.agent.rssReadyMB, 90, 'MB')}, all synced ${sample.agent.allSyncedMs} ms`,
      ];
      if (sampleOnly) {
        lines.push(...(await profileLines(sample.profiled)), loadLine(loadAtStart));
        return {
          name: 'agent-scale',
          summary: lines.join('; '),
          data: { entry, nodeOptions, floor, sample },
        };
      }
      const created = performance.now();
      if (crds > 0) {
        log(`creating ${crds} custom resource kinds with 20 objects each`);
        await createCustomResources(client, crds, 20);
      }
      log(`creating ${pods} pods on ${state.nodes.length} nodes`);
      await createPods(client, state.nodes, pods);
      log(`load created after ${Math.round((performance.now() - created) / 1000)}s; measuring`);
      const large = await scenario(state, client, entry, { settleSeconds, nodeOptions, profile });
      const { agent, apiServer } = large;
      // The stricter of the API server's two ways to LIST the same kinds (paged from etcd, or its watch cache).
      const listMs = Math.min(apiServer.listCoreMs, apiServer.listCoreFromCacheMs);
      const listGoal = Math.round(1.1 * listMs);
      lines.push(
        `${pods} pods${crds ? `, ${crds} CRDs` : ''} (${agent.objects} objects): pod list complete ${goal(agent.coreReadyMs, listGoal, 'ms')}, ×${(agent.coreReadyMs / listMs).toFixed(2)} the LIST (API LIST of the core kinds ${apiServer.listCoreMs} ms from etcd, ${apiServer.listCoreFromCacheMs} ms from its watch cache), all synced ${agent.allSyncedMs} ms (API LIST of every kind ${apiServer.listAllMs} ms); /api/health while syncing p99 ${agent.healthP99Ms} ms, worst ${agent.healthWorstMs} ms`,
        memoryLine(pods, agent, settleSeconds),
        ...(agent.mix ? [mixLine(pods, agent.mix)] : []),
      );
      log('measuring the cache by kind');
      const byKind = await cacheBytesByKind(client);
      lines.push(
        `cached bytes per object: ${byKind.map((k) => `${k.kind} ${k.bytesPerObject} B (${k.objects})`).join(', ')}`,
      );
      lines.push(...(await profileLines(large.profiled)));
      lines.push(loadLine(loadAtStart));
      return {
        name: 'agent-scale',
        summary: lines.join('; '),
        data: { entry, nodeOptions, floor, pods, crds, nodes: state.nodes.length, sample, large, byKind },
      };
    },
    nodes,
  );
}
