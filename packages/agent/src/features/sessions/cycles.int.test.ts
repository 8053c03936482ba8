import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, readlink, rm } from 'node:fs/promises';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, testCluster, waitUntil } from '@binnacle/testkit';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

const cycles = 200;
const concurrency = 10;
const cluster = testCluster();
const core = cluster.kubeConfig().makeApiClient(CoreV1Api);
let agent: ChildProcess;
let url = '';
let dataDir = '';
let ns: { name: string; remove: () => Promise<void> };
let forwardPort = 0;

const openFds = async () => (await readdir(`/proc/${agent.pid}/fd`)).length;

/** The agent's descriptors counted by what they are (`socket`, `pipe`, a file's path…), for a failure's message. */
async function fdKinds(): Promise<string> {
  const dir = `/proc/${agent.pid}/fd`;
  const kinds = new Map<string, number>();
  for (const fd of await readdir(dir)) {
    const target = await readlink(`${dir}/${fd}`).catch(() => 'closed');
    const kind = target.replace(/:\[\d+\]$/, '');
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  return [...kinds].map(([kind, n]) => `${n} ${kind}`).join(', ');
}

/** The agent's open descriptors once they hold still (the same in four reads in a row), not while sockets close. */
async function steadyFds(): Promise<number> {
  const reads: number[] = [];
  await waitUntil(
    'open descriptors to hold still',
    async () => {
      reads.push(await openFds());
      const last = reads.slice(-4);
      return last.length === 4 && last.every((n) => n === last[0]);
    },
    { timeoutMs: 60_000, intervalMs: 250 },
  );
  return reads.at(-1) as number;
}
const sessions = async () =>
  (await (await fetch(`${url}/api/sessions`)).json()) as { total: number; counts: Record<string, number> };

/** Opens a stream, waits until it is really open (first bytes or upgrade), then drops it without a goodbye. */
async function abandonHttp(path: string): Promise<void> {
  const abort = new AbortController();
  const res = await fetch(`${url}${path}`, { signal: abort.signal });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  const reader = res.body?.getReader();
  await reader?.read();
  abort.abort();
}

function abandonWebSocket(path: string): Promise<void> {
  return new Promise((resolveOpen, reject) => {
    const ws = new WebSocket(`${url.replace('http', 'ws')}${path}`);
    ws.once('message', () => {
      ws.terminate();
      resolveOpen();
    });
    ws.once('unexpected-response', (_q, res) => reject(new Error(`${path} refused: ${res.statusCode}`)));
    ws.once('error', reject);
    ws.once('open', () => ws.send(JSON.stringify({ type: 'input', data: 'echo hi\r' })));
  });
}

function abandonTcp(port: number): Promise<void> {
  return new Promise((resolveSent, reject) => {
    const socket = new Socket();
    socket.once('error', reject);
    socket.connect(port, '127.0.0.1', () => {
      socket.write('ping');
      socket.once('data', () => {
        socket.destroy();
        resolveSent();
      });
    });
  });
}

/**
 * How long one kind's cycles may take: the slowest kind (exec) takes 20–25 s on two cores, and several times that
 * on a machine busy with other work. Past it the kind fails, saying how far it got.
 */
const kindDeadlineMs = 150_000;

/** Runs `task` `times` times, `concurrency` at once, within `kindDeadlineMs`; stops at its first failure. */
async function repeat(times: number, task: () => Promise<void>): Promise<void> {
  let next = 0;
  let done = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      stopped = true;
      reject(new Error(`${done} of ${times} cycles done within ${kindDeadlineMs / 1000} s`));
    }, kindDeadlineMs);
  });
  const workers = Array.from({ length: concurrency }, async () => {
    while (next < times && !stopped) {
      next += 1;
      await task().catch((error: unknown) => {
        stopped = true;
        throw error;
      });
      done += 1;
    }
  });
  try {
    await Promise.race([Promise.all(workers), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

beforeAll(async () => {
  ns = await cluster.namespace('cycles');
  await core.createNamespacedPod({
    namespace: ns.name,
    body: {
      metadata: { name: 'target', labels: { app: 'target' } },
      spec: { containers: [{ name: 'main', image: 'busybox:1.37', ports: [{ containerPort: 9000 }] }] },
    },
  });
  dataDir = await mkdtemp(join(tmpdir(), 'binnacle-cycles-'));
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  // Its own process, so its open file descriptors are the agent's alone.
  agent = spawn(
    process.execPath,
    [
      resolve(import.meta.dirname, '../../../../cli/src/binnacle.ts'),
      'agent',
      '--kubeconfig',
      cluster.kubeconfigPath(),
      '--port',
      String(port),
      '--data-dir',
      dataDir,
      '--no-browser',
    ],
    // HOME is its empty data dir: the login shells it abandons read none of the machine's dotfiles, where a shell
    // killed while it held a lock (pyenv's rehash) left it held for every later login shell of the run.
    { stdio: 'ignore', env: { ...process.env, HOME: dataDir } },
  );
  await waitUntil(
    'the agent and the pod',
    async () => {
      const res = await fetch(`${url}/api/resources/pods/${ns.name}/target`).catch(() => undefined);
      if (!res?.ok) return false;
      return (
        ((await res.json()) as { resource: { status: { phase?: string } } }).resource.status.phase ===
        'Running'
      );
    },
    { timeoutMs: 60_000, intervalMs: 200 },
  );
  const forward = await fetch(`${url}/api/portforwards`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ namespace: ns.name, pod: 'target', port: 9000 }),
  });
  forwardPort = ((await forward.json()) as { localPort: number }).localPort;
}, 120_000);

afterAll(async () => {
  agent?.kill('SIGTERM');
  await Promise.all([ns?.remove(), rm(dataDir, { recursive: true, force: true })]);
});

const kinds: [string, () => Promise<void>][] = [
  ['event stream', () => abandonHttp(`/api/events/stream?namespaces=${ns.name}`)],
  ['pod log stream', () => abandonHttp(`/api/pods/${ns.name}/target/logs/stream?tail=1`)],
  [
    'workload log stream',
    () => abandonHttp('/api/workloads/deployments/demo-shop/storefront/logs/stream?tail=1'),
  ],
  [
    'file download',
    () =>
      abandonHttp(
        `/api/pods/${ns.name}/target/files/download?path=${encodeURIComponent(resolve(import.meta.dirname, '..'))}`,
      ),
  ],
  ['exec', () => abandonWebSocket(`/api/pods/${ns.name}/target/exec`)],
  ['local terminal', () => abandonWebSocket('/api/local-terminal')],
  ['port-forward connection', () => abandonTcp(forwardPort)],
];
const settled = async () => (await sessions()).counts.portforward === 1 && (await sessions()).total === 1;

// One test per kind, each bounded by its deadline, so a slow or stuck kind is named; the last one checks that
// none of them left anything behind. Every wait polls its condition with a deadline of its own.
describe(`${cycles} open-and-abandon cycles of every stream kind`, () => {
  let baseline = 0;
  let peak = 0;

  it('start from the descriptors held once one of each has been opened', async () => {
    // Connection pools and lazy set-up belong to the baseline, not to a leak.
    for (const [, open] of kinds) await open();
    await waitUntil('the warm-up sessions to end', settled, { timeoutMs: 30_000 });
    baseline = await steadyFds();
    peak = baseline;
  }, 100_000);

  for (const [name, open] of kinds) {
    it(
      `${name}: ${cycles} cycles`,
      async () => {
        const started = performance.now();
        await repeat(cycles, open);
        peak = Math.max(peak, await openFds());
        process.stdout.write(
          `cycles: ${cycles} × ${name} in ${Math.round(performance.now() - started)} ms\n`,
        );
      },
      kindDeadlineMs + 10_000,
    );
  }

  it('leave no session and no open handle behind', async () => {
    const finished = performance.now();
    await waitUntil('every abandoned session to end', settled, { timeoutMs: 60_000, intervalMs: 250 });
    const ended = performance.now();
    // Keep-alive sockets to the API server idle out within the pool's 30 s, unless the agent's own background
    // requests keep one in use: two above the baseline are allowed, as a leak of any of the kinds above leaves
    // hundreds (one per cycle).
    await waitUntil(
      `open descriptors back to the baseline of ${baseline}`,
      async () => {
        const open = await openFds();
        if (open <= baseline + 2) return true;
        throw new Error(`${open} open: ${await fdKinds()}`);
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    const seconds = (from: number, to: number) => ((to - from) / 1000).toFixed(1);
    process.stdout.write(
      `cycles: open descriptors ${baseline} before, ${peak} at most, ${await openFds()} after; sessions ended in ${seconds(finished, ended)} s, descriptors back ${seconds(ended, performance.now())} s later\n`,
    );
    expect(await sessions()).toMatchObject({
      total: 1,
      counts: { events: 0, logs: 0, exec: 0, terminal: 0, download: 0, portforward: 1 },
    });
  }, 130_000);
});
