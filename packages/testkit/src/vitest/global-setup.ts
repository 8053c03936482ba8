import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { clusterDown, clusterUp } from '../cluster/control-plane.ts';
import { repoRoot } from '../cluster/paths.ts';
import { seedCluster } from '../cluster/seed.ts';
import type { ClusterState } from '../cluster/state.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    binnacleCluster: ClusterState;
  }
}

/**
 * Starts one seeded control plane for the integration project in its own state dir (never the developer's
 * `.cluster`), and stops it afterwards. A component that cannot start fails the run; nothing is skipped.
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const stateDir = process.env.BINNACLE_TEST_CLUSTER_DIR ?? join(repoRoot, '.cluster/test');
  const log = (line: string) => process.stderr.write(`[cluster] ${line}\n`);
  // A control plane a killed run left running goes first: the seed leaves existing objects as they are (ADR 0059),
  // and the tests need its objects as written, not as that run's tests left them (ADR 0063).
  if (await clusterDown({ stateDir })) log('stopped the control plane an earlier run left running');
  const state = await clusterUp({ stateDir, log });
  // Locks a killed earlier run may have left (see TestCluster.lock): nothing of this run holds one yet.
  await rm(join(stateDir, 'locks'), { recursive: true, force: true });
  await seedCluster(state, log);
  project.provide('binnacleCluster', state);
  return async () => {
    await clusterDown({ stateDir });
  };
}
