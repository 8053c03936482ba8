import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ClusterState, freePort, repoRoot, waitUntil } from '@binnacle/testkit';
import type { KubeClient } from '../packages/agent/src/kube/client.ts';
import { collectionPath, discover } from '../packages/agent/src/kube/discovery.ts';
import type { KubeList } from '../packages/agent/src/kube/objects.ts';
import { tierOf } from '../packages/agent/src/kube/tiers.ts';
import { createPods, loadCluster } from './load.ts';
import type { BenchResult } from './run.ts';

const runs = 3;
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

/** Wall time for the API server to LIST (paged, 500 a page) every kind of a tier in parallel, as the agent does. */
async function listTime(client: KubeClient, tiers: string[]): Promise<{ ms: number; objects: number }> {
  const resources = (await discover(client)).filter((r) => tiers.includes(tierOf(r) ?? ''));
  const started = performance.now();
  const counts = await Promise.all(
    resources.map(async (r) => {
      let count = 0;
      let token: string | undefined;
      do {
        const page = await client.request<KubeList>({
          path: collectionPath(r),
          query: { limit: 500, continue: token },
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
  rssMB: number;
  heapUsedMB: number;
  objects: number;
}

/** Starts `binnacle agent` as its own process and times it until every tier has synced. */
async function agentRun(state: ClusterState): Promise<AgentRun> {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'binnacle-bench-'));
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      resolve(repoRoot, 'packages/cli/src/binnacle.ts'),
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
        if (health?.sync.ready) marks.coreReadyMs ??= performance.now() - started;
        return Boolean(health?.sync.tiers.every((t) => t.state === 'synced'));
      },
      { timeoutMs: 300_000, intervalMs: 10 },
    );
    marks.allSyncedMs = performance.now() - started;
    await sleep(2000);
    const res = await fetch(`http://127.0.0.1:${port}/api/health`);
    health = (await res.json()) as typeof health;
    const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return {
      listeningMs: marks.listeningMs ?? 0,
      coreReadyMs: marks.coreReadyMs ?? 0,
      allSyncedMs: marks.allSyncedMs,
      rssMB: Math.round(rssKb / 102.4) / 10,
      heapUsedMB: health?.runtime.heapUsedMB ?? 0,
      objects: health?.resourceCount ?? 0,
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.on('exit', r));
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function scenario(state: ClusterState, client: KubeClient) {
  const core = await Promise.all(Array.from({ length: runs }, () => listTime(client, ['core'])));
  const all = await Promise.all(
    Array.from({ length: runs }, () => listTime(client, ['core', 'deferred', 'custom'])),
  );
  const agents: AgentRun[] = [];
  for (let i = 0; i < runs; i += 1) agents.push(await agentRun(state));
  const pick = (key: keyof AgentRun) => median(agents.map((a) => a[key]));
  return {
    apiServer: {
      listCoreMs: Math.round(median(core.map((c) => c.ms))),
      listAllMs: Math.round(median(all.map((c) => c.ms))),
      objects: all[0]?.objects ?? 0,
    },
    agent: {
      listeningMs: Math.round(pick('listeningMs')),
      coreReadyMs: Math.round(pick('coreReadyMs')),
      allSyncedMs: Math.round(pick('allSyncedMs')),
      rssMB: pick('rssMB'),
      heapUsedMB: pick('heapUsedMB'),
      objects: pick('objects'),
    },
    runs: agents,
  };
}

export async function agentStartup(args: string[]): Promise<BenchResult> {
  const pods = Number(args.find((a) => a.startsWith('--pods='))?.slice(7) ?? 10_000);
  return loadCluster(pods, async (state, client) => {
    log('measuring the sample cluster');
    const sample = await scenario(state, client);
    log(`creating ${pods} pods on ${state.nodes.length} nodes`);
    const created = performance.now();
    await createPods(client, state.nodes, pods);
    log(`${pods} pods Running after ${Math.round((performance.now() - created) / 1000)}s; measuring`);
    const large = await scenario(state, client);
    const perObject =
      ((large.agent.heapUsedMB - sample.agent.heapUsedMB) * 1048576) /
      Math.max(1, large.agent.objects - sample.agent.objects);
    const ratio = (s: typeof sample) => (s.agent.allSyncedMs / Math.max(1, s.apiServer.listAllMs)).toFixed(1);
    const line = (label: string, s: typeof sample) =>
      `${label}: ${s.agent.objects} objects, ready ${s.agent.coreReadyMs} ms, all synced ${s.agent.allSyncedMs} ms (API LIST ${s.apiServer.listAllMs} ms, ×${ratio(s)}), RSS ${s.agent.rssMB} MB`;
    return {
      name: 'agent-startup',
      summary: `${line('sample', sample)}; ${line(`${pods} pods`, large)}; heap ≈ ${Math.round(perObject)} B/object`,
      data: { pods, nodes: state.nodes.length, sample, large, heapBytesPerObject: Math.round(perObject) },
    };
  });
}
