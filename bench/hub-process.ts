import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { freePort, repoRoot } from '@binnacle/testkit';

export const breakGlass = { email: 'admin@example.com', password: 'bench horse battery staple' };

export interface HubMemory {
  rssMB: number;
  /** Peak RSS of the process so far. */
  hwmMB: number;
  heapUsedMB: number;
  externalMB: number;
}

export interface HubProcess {
  /** Where this process reaches the hub (loopback). */
  url: string;
  /** The hub's public URL: its same-origin checks and cookie name follow it. */
  publicUrl: string;
  pid: number;
  /** Figures right after a full garbage collection in the hub (see hub-gc-signal.ts). */
  memory(): Promise<HubMemory>;
  /** Lines the hub logged (warnings and worse, plus its start banner). */
  logTail(): string;
  /** SIGTERM, then the time it took to exit (SIGKILL after 15 s). */
  stop(): Promise<{ exitMs: number; code: number | null; killed: boolean }>;
}

/** A full collection of a few hundred MB of heap takes well under this. */
const gcWaitMs = 500;
const mb = (bytes: number) => Math.round(bytes / 104857.6) / 10;

/** Gauges from the hub's own /metrics (prom-client default metrics), so heap growth shows apart from RSS. */
async function heapFigures(url: string): Promise<{ heapUsedMB: number; externalMB: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const gauge = (name: string) =>
    Number(new RegExp(`^binnacle_hub_${name} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  return {
    heapUsedMB: mb(gauge('nodejs_heap_size_used_bytes')),
    externalMB: mb(gauge('nodejs_external_memory_bytes')),
  };
}

async function awaitListening(child: ChildProcess, url: string, tail: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the hub exited with ${child.exitCode}:\n${tail()}`);
    const res = await fetch(`${url}/api/health`).catch(() => undefined);
    await res?.arrayBuffer();
    if (res?.status === 200) return;
    await sleep(50);
  }
  throw new Error(`the hub did not answer /api/health within 30 s:\n${tail()}`);
}

/**
 * `binnacle hub` as its own process, on SQLite in a temporary data dir, on 127.0.0.1 with an
 * http://localhost public URL: its RSS is then the hub's alone, not the load generator's or the agents'.
 */
export async function startHubProcess(): Promise<HubProcess> {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'binnacle-bench-hub-'));
  const publicUrl = `http://localhost:${port}`;
  const url = `http://127.0.0.1:${port}`;
  // Settings of the shell running the bench must not leak into the measured hub.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('BINNACLE_')),
  );
  const child = spawn(
    process.execPath,
    [
      '--expose-gc',
      '--import',
      pathToFileURL(join(import.meta.dirname, 'hub-gc-signal.ts')).href,
      resolve(repoRoot, 'packages/cli/src/binnacle.ts'),
      'hub',
      '--port',
      String(port),
      '--listen-address',
      '127.0.0.1',
      '--data-dir',
      dataDir,
      '--public-url',
      publicUrl,
    ],
    {
      env: {
        ...env,
        BINNACLE_BREAK_GLASS_EMAIL: breakGlass.email,
        BINNACLE_BREAK_GLASS_PASSWORD: breakGlass.password,
        BINNACLE_SECRET_KEY: 'b'.repeat(64),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const stop = async () => {
    const started = performance.now();
    let killed = false;
    if (child.exitCode === null) child.kill('SIGTERM');
    const forced = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, 15_000);
    const code = await exited;
    clearTimeout(forced);
    await rm(dataDir, { recursive: true, force: true });
    return { exitMs: Math.round(performance.now() - started), code, killed };
  };
  try {
    await awaitListening(child, url, () => log);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    publicUrl,
    pid: child.pid as number,
    async memory() {
      child.kill('SIGUSR2');
      await sleep(gcWaitMs);
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
      const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
      return { rssMB: mb(kb('VmRSS') * 1024), hwmMB: mb(kb('VmHWM') * 1024), ...(await heapFigures(url)) };
    },
    logTail: () => log,
    stop,
  };
}
