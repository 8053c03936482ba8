import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isListening, testCluster, waitUntil } from '@binnacle/testkit';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

const cli = resolve(import.meta.dirname, 'binnacle.ts');
const cluster = testCluster();
const dataDir = await mkdtemp(join(tmpdir(), 'binnacle-cli-'));
const started: ChildProcess[] = [];
afterEach(() => {
  // A failed assertion must not leave an agent holding the port for the next run.
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

interface Run {
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<number>;
}

function binnacle(args: string[], env: NodeJS.ProcessEnv = {}): Run {
  const child = spawn(process.execPath, [cli, ...args], {
    env: {
      ...process.env,
      HOME: dataDir,
      KUBECONFIG: cluster.kubeconfigPath(),
      BINNACLE_DATA_DIR: dataDir,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout?.resume();
  const exited = new Promise<number>((resolveExit) => child.on('exit', (code) => resolveExit(code ?? -1)));
  return { child, stderr: () => stderr, exited };
}

async function serves(port: number, run: Run): Promise<void> {
  await waitUntil(
    `binnacle agent on port ${port}`,
    async () => {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      return ((await res.json()) as { status: string }).status === 'healthy';
    },
    { timeoutMs: 30_000 },
  );
  expect(run.stderr()).toContain(
    `serving http://127.0.0.1:${port} for context "binnacle-local-binnacle-admin"`,
  );
}

describe('binnacle agent', () => {
  it('serves on --port 9391, syncs, and exits 0 on SIGTERM leaving the port free', async () => {
    const run = binnacle(['agent', '--port', '9391', '--no-browser']);
    await serves(9391, run);
    await waitUntil(
      'the sync progress lines',
      () => Promise.resolve(run.stderr().includes('custom tier synced')),
      { timeoutMs: 10_000 },
    );
    expect(run.stderr()).toMatch(/core tier synced \(\d+ kinds, \d+ ms\)/);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(await isListening(9391)).toBe(false);
  });

  it('serves on 9280 by default', async () => {
    const run = binnacle(['agent']);
    await serves(9280, run);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
  });

  it('exits 2 naming a bad flag, and 1 naming a missing kubeconfig', async () => {
    const badFlag = binnacle(['agent', '--port', 'eighty']);
    expect(await badFlag.exited).toBe(2);
    expect(badFlag.stderr()).toBe(
      'binnacle agent: --port: "eighty" is not a port number (1-65535)\nrun "binnacle agent --help" for the flags\n',
    );
    const noCluster = binnacle(['agent', '--kubeconfig', join(dataDir, 'missing')]);
    expect(await noCluster.exited).toBe(1);
    expect(noCluster.stderr()).toBe(
      `binnacle agent: kubeconfig ${join(dataDir, 'missing')} does not exist\n`,
    );
    const unknownCommand = binnacle(['agnet']);
    expect(await unknownCommand.exited).toBe(2);
  });

  it('prints --help with exit 0', async () => {
    const child = spawn(process.execPath, [cli, 'agent', '--help']);
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    expect(await new Promise((r) => child.on('exit', r))).toBe(0);
    expect(out).toMatch(/^usage: binnacle agent \[flags\]/);
  });
});
