import { configDefaults, defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './packages/testkit/src/vitest/sequencer.ts';
import { SummaryReporter } from './packages/testkit/src/vitest/summary-reporter.ts';

// Unit tests run anywhere in seconds. Integration tests (*.int.test.ts) share one real, seeded control plane
// started by the global setup; the hub's run against SQLite and against a real PostgreSQL server instead. They
// fail when a component is missing, they never skip.
export default defineConfig({
  test: {
    reporters: ['default', new SummaryReporter()],
    // A fresh clone has no durations from an earlier run: the files known to be slow start first.
    sequence: { sequencer: SlowFirstSequencer },
    // Two cores. One number for every project: projects of one worker ran one file at a time after the others,
    // each file paying a worker's start-up alone (unit, hub and static checks took ~290 s that way).
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts'],
          // Pure functions and in-process servers: one worker's modules serve every file (40 s → 13 s).
          isolate: false,
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
        },
      },
      {
        // tsc and the type-aware eslint pass over one program take ~50 CPU seconds, and several times that in wall
        // time beside the integration suite on 2 cores (ADR 0089); with them, the scripts' own unit tests (the
        // layering check's fixtures).
        test: {
          name: 'checks',
          include: ['scripts/*.test.ts'],
          exclude: [...configDefaults.exclude, 'scripts/*.int.test.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['packages/*/src/**/*.int.test.ts', 'test/**/*.int.test.ts', 'scripts/**/*.int.test.ts'],
          // The hub's integration tests need a database, not the cluster: the hub-* projects below run them.
          exclude: [...configDefaults.exclude, 'packages/hub/**'],
          globalSetup: ['./packages/testkit/src/vitest/global-setup.ts'],
          // Files share their worker's modules (ADR 0104): each file importing the agent afresh was 16 % of the
          // test phase. Every file still starts and stops its own agents, hubs and servers.
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      // The hub's integration tests run twice, once per database it supports.
      {
        test: {
          name: 'hub-sqlite',
          include: ['packages/hub/src/**/*.int.test.ts'],
          // Several replicas need one shared PostgreSQL: the embedded SQLite is refused with Redis.
          exclude: ['packages/hub/src/services/replicas/**'],
          env: { BINNACLE_TEST_DATABASE: 'sqlite' },
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'hub-postgres',
          include: ['packages/hub/src/**/*.int.test.ts'],
          env: { BINNACLE_TEST_DATABASE: 'postgres' },
          isolate: false,
          globalSetup: ['./packages/testkit/src/vitest/postgres-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
