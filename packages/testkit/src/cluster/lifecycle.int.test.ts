import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from './paths.ts';
import { isListening } from './ports.ts';
import { groupAlive } from './processes.ts';
import { readState } from './state.ts';

const run = promisify(execFile);
const stateDir = await mkdtemp(join(tmpdir(), 'binnacle-lifecycle-'));
/**
 * Each command's deadline. `up` waits on every component with deadlines of its own (the API server's 120 s
 * first) and fails naming the one that did not come up; this bound only catches a command that hangs. On two
 * quiet cores a round takes about 13 s.
 */
const deadlineMs = { up: 240_000, down: 60_000 };
const cli = async (command: 'up' | 'down') => {
  try {
    return await run(process.execPath, [join(repoRoot, 'packages/testkit/src/cli.ts'), command], {
      env: { ...process.env, BINNACLE_CLUSTER_DIR: stateDir, BINNACLE_CLUSTER_NODES: '1' },
      timeout: deadlineMs[command],
    });
  } catch (error) {
    const { killed, stderr } = error as { killed?: boolean; stderr?: string };
    if (killed)
      throw new Error(`cluster:${command} did not finish within ${deadlineMs[command] / 1000} s\n${stderr}`);
    throw error;
  }
};

afterAll(async () => {
  await cli('down').catch(() => undefined);
  await rm(stateDir, { recursive: true, force: true });
});

describe('cluster:up and cluster:down', () => {
  it(
    'start and stop cleanly twice in a row, leaving no listening port and no process behind',
    async () => {
      for (let round = 1; round <= 2; round += 1) {
        const { stdout } = await cli('up');
        expect(stdout.trim()).toBe(join(stateDir, 'admin.kubeconfig'));
        const state = await readState(stateDir);
        if (!state) throw new Error(`round ${round}: no state after cluster:up`);
        const ports = Object.values(state.ports);
        expect(await Promise.all(ports.map((port) => isListening(port)))).toEqual(ports.map(() => true));

        await cli('down');
        expect(await readState(stateDir)).toBeUndefined();
        expect(await Promise.all(ports.map((port) => isListening(port)))).toEqual(ports.map(() => false));
        expect(state.processes.filter((proc) => groupAlive(proc.pid)).map((proc) => proc.name)).toEqual([]);
      }
    },
    2 * (deadlineMs.up + deadlineMs.down),
  );
});
