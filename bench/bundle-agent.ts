import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, repoRoot, waitUntil } from '@binnacle/testkit';

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

/**
 * `binnacle agent` in a process of its own, on a free loopback port with a data dir of its own; `entry`: node's
 * arguments before `agent` (options and the entry file), or nothing when `executable` is the single executable.
 * `started`: just before the spawn, for timing its start.
 */
export async function spawnAgent(entry: string[], kubeconfig: string, executable = process.execPath) {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'binnacle-bench-'));
  const args = [
    'agent',
    '--kubeconfig',
    kubeconfig,
    '--port',
    String(port),
    '--no-browser',
    '--data-dir',
    dataDir,
  ];
  const started = performance.now();
  const child = spawn(executable, [...entry, ...args], { stdio: 'ignore' });
  return { child, url: `http://127.0.0.1:${port}`, dataDir, started };
}

export interface BundleAgent {
  url: string;
  close(): Promise<void>;
}

/**
 * `binnacle agent` as released: the bundle (`npm run build:cli`, built first, with the web UI as built beside
 * it), in its own process on a loopback port, resolved once every informer tier has synced.
 */
export async function bundleAgent(kubeconfig: string): Promise<BundleAgent> {
  log('building the release bundle (npm run build:cli)');
  execFileSync('npm', ['run', '--silent', 'build:cli'], { cwd: repoRoot, stdio: 'ignore' });
  const { child, url, dataDir } = await spawnAgent(
    [resolve(repoRoot, 'packages/cli/dist/binnacle.js')],
    kubeconfig,
  );
  const close = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntil(
      'the agent to sync',
      async () => {
        const health = await fetch(`${url}/api/health`)
          .then((r) => r.json() as Promise<{ sync: { tiers: { state: string }[] } }>)
          .catch(() => undefined);
        return Boolean(health?.sync.tiers.every((t) => t.state === 'synced'));
      },
      { timeoutMs: 600_000, intervalMs: 500 },
    );
  } catch (error) {
    await close();
    throw error;
  }
  return { url, close };
}
