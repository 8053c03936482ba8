import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ClusterState, freePort, repoRoot, waitUntil } from '@binnacle/testkit';
import type { KubeClient } from '../packages/agent/src/kube/client.ts';
import { collectionPath, discover } from '../packages/agent/src/kube/discovery.ts';
import type { KubeList } from '../packages/agent/src/kube/objects.ts';
import { tierOf } from '../packages/agent/src/kube/tiers.ts';
import { goal } from './goals.ts';
import { createPods, loadCluster } from './load.ts';
import type { BenchResult } from './run.ts';

const runs = 3;
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
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
  /** The highest RSS the process reached (VmHWM). */
  peakMB: number;
  /** RSS `settle` seconds after every tier synced, when asked for. */
  rssSettledMB?: number;
  heapUsedMB: number;
  objects: number;
}

const megabytes = (kb: number) => Math.round(kb / 102.4) / 10;

/** Resident and peak memory of a process, from /proc. */
async function memoryOf(pid: number | undefined): Promise<{ rssMB: number; peakMB: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMB: megabytes(field('VmRSS')), peakMB: megabytes(field('VmHWM')) };
}

/** The release bundle (`npm run build:cli`) or the TypeScript sources run directly, as `npm start` does. */
type Entry = 'bundle' | 'source';
const entryFiles: Record<Entry, string> = {
  bundle: resolve(repoRoot, 'packages/cli/dist/binnacle.js'),
  source: resolve(repoRoot, 'packages/cli/src/binnacle.ts'),
};

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

/** Starts `binnacle agent` as its own process and times it until every tier has synced. */
async function agentRun(
  state: ClusterState,
  entry: Entry,
  settleSeconds: number,
  nodeOptions: string[],
): Promise<AgentRun> {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'binnacle-bench-'));
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      ...nodeOptions,
      entryFiles[entry],
      'agent',
      '--kubeconfig',
      state.kubeconfigs.admin,
      '--port',
      String(port),
      '--no-browser',
      '--data-dir',
      dataDir,
    ],
    { stdio: 'ignore' },
  );
  const marks: Partial<AgentRun> = {};
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
        const res = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => undefined);
        if (!res) return false;
        marks.listeningMs ??= performance.now() - started;
        health = (await res.json()) as typeof health;
        if (health?.sync.ready && marks.coreReadyMs === undefined) {
          marks.coreReadyMs = performance.now() - started;
          marks.rssReadyMB = (await memoryOf(child.pid)).rssMB;
        }
        return Boolean(health?.sync.tiers.every((t) => t.state === 'synced'));
      },
      { timeoutMs: 300_000, intervalMs: 10 },
    );
    marks.allSyncedMs = performance.now() - started;
    await sleep(2000);
    const res = await fetch(`http://127.0.0.1:${port}/api/health`);
    health = (await res.json()) as typeof health;
    const synced = await memoryOf(child.pid);
    let rssSettledMB: number | undefined;
    if (settleSeconds > 0) {
      await sleep(settleSeconds * 1000 - 2000);
      rssSettledMB = (await memoryOf(child.pid)).rssMB;
    }
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
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.on('exit', r));
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function scenario(
  state: ClusterState,
  client: KubeClient,
  entry: Entry,
  settleSeconds: number,
  nodeOptions: string[],
) {
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
  // The last run also waits for the memory the agent gives back after its initial sync.
  for (let i = 0; i < runs; i += 1)
    agents.push(await agentRun(state, entry, i === runs - 1 ? settleSeconds : 0, nodeOptions));
  const pick = (key: Exclude<keyof AgentRun, 'rssSettledMB'>) => median(agents.map((a) => a[key]));
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
      peakMB: pick('peakMB'),
      rssSettledMB: agents.at(-1)?.rssSettledMB,
      heapUsedMB: pick('heapUsedMB'),
      objects: pick('objects'),
    },
    runs: agents,
  };
}

export async function agentStartup(args: string[]): Promise<BenchResult> {
  const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const pods = Number(option('pods') ?? 10_000);
  const settleSeconds = Number(option('settle') ?? 60);
  const entry = (option('entry') ?? 'bundle') as Entry;
  // V8 flags for the agent's process, e.g. --node-options=--max-semi-space-size=4 (comma-separated).
  const nodeOptions = option('node-options')?.split(',').filter(Boolean) ?? [];
  if (!(entry in entryFiles)) throw new Error(`--entry must be bundle or source, not ${entry}`);
  if (entry === 'bundle') {
    log('building the release bundle (npm run build:cli)');
    execFileSync('npm', ['run', '--silent', 'build:cli'], { cwd: repoRoot, stdio: 'ignore' });
  }
  const floor = await nodeFloor();
  log(`a bare node process: ${floor.readyMs} ms to its first answer, RSS ${floor.rssMB} MB`);
  return loadCluster(pods, async (state, client) => {
    log(`measuring the sample cluster (${entry})`);
    const sample = await scenario(state, client, entry, 0, nodeOptions);
    const lines = [
      `${[entry, ...nodeOptions].join(' ')}; bare node ${floor.readyMs} ms, ${floor.rssMB} MB`,
      `sample (${sample.agent.objects} objects): ready ${goal(sample.agent.coreReadyMs, 400, 'ms')}, RSS at ready ${goal(sample.agent.rssReadyMB, 120, 'MB')}, all synced ${sample.agent.allSyncedMs} ms`,
    ];
    let large: Awaited<ReturnType<typeof scenario>> | undefined;
    if (pods > 0) {
      log(`creating ${pods} pods on ${state.nodes.length} nodes`);
      const created = performance.now();
      await createPods(client, state.nodes, pods);
      log(`${pods} pods Running after ${Math.round((performance.now() - created) / 1000)}s; measuring`);
      large = await scenario(state, client, entry, settleSeconds, nodeOptions);
      const { agent, apiServer } = large;
      const listGoal = Math.round(Math.min(1400, 1.1 * apiServer.listCoreFromCacheMs));
      lines.push(
        `${pods} pods (${agent.objects} objects): pod list complete ${goal(agent.coreReadyMs, listGoal, 'ms')} (API LIST of the core kinds ${apiServer.listCoreMs} ms from etcd, ${apiServer.listCoreFromCacheMs} ms from its watch cache), all synced ${agent.allSyncedMs} ms; RSS at ready ${goal(agent.rssReadyMB, 250, 'MB')}, peak ${goal(agent.peakMB, 250, 'MB')}, ${settleSeconds} s later ${goal(agent.rssSettledMB ?? 0, 250, 'MB')}; heap ${agent.heapUsedMB} MB`,
      );
    }
    const perObject = large
      ? ((large.agent.heapUsedMB - sample.agent.heapUsedMB) * 1048576) /
        Math.max(1, large.agent.objects - sample.agent.objects)
      : undefined;
    if (perObject !== undefined) lines.push(`heap ≈ ${Math.round(perObject)} B per cached object`);
    return {
      name: 'agent-startup',
      summary: lines.join('; '),
      data: {
        entry,
        nodeOptions,
        floor,
        pods,
        nodes: state.nodes.length,
        sample,
        large,
        heapBytesPerObject: perObject,
      },
    };
  });
}
