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
const cli = (command: string) =>
  run(process.execPath, [join(repoRoot, 'packages/testkit/src/cli.ts'), command], {
    env: { ...process.env, BINNACLE_CLUSTER_DIR: stateDir, BINNACLE_CLUSTER_NODES: '1' },
  });

afterAll(async () => {
  await cli('down').catch(() => undefined);
  await rm(stateDir, { recursive: true, force: true });
});

describe('cluster:up and cluster:down', () => {
  it('start and stop cleanly twice in a row, leaving no listening port and no process behind', async () => {
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
  });
});
