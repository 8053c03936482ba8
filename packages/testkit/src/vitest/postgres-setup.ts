import type { TestProject } from 'vitest/node';
import { startPostgres } from '../postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    binnaclePostgres: { url: string };
  }
}

/**
 * Starts one PostgreSQL server for a project; its tests take a fresh database each through
 * `createDatabase(inject('binnaclePostgres').url)`. Missing PostgreSQL fails the run; nothing is skipped.
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgres({ log: (line) => process.stderr.write(`[postgres] ${line}\n`) });
  project.provide('binnaclePostgres', { url: server.url });
  return async () => {
    await server.stop();
  };
}
