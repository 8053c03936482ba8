import { configDefaults, defineConfig } from 'vitest/config';
import { SummaryReporter } from './packages/testkit/src/vitest/summary-reporter.ts';

// Unit tests run anywhere in seconds. Integration tests (*.int.test.ts) share one real, seeded control plane
// started by the global setup; the hub's run against SQLite and against a real PostgreSQL server instead. They
// fail when a component is missing, they never skip.
export default defineConfig({
  test: {
    reporters: ['default', new SummaryReporter()],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
        },
      },
      {
        // The type-aware eslint pass takes ~45 s alone and over 120 s beside the integration suite on 2 cores.
        test: { name: 'checks', include: ['scripts/static-checks.test.ts'], testTimeout: 300_000 },
      },
      {
        test: {
          name: 'integration',
          include: ['packages/*/src/**/*.int.test.ts', 'test/**/*.int.test.ts', 'scripts/**/*.int.test.ts'],
          // The hub's integration tests need a database, not the cluster: the hub-* projects below run them.
          exclude: [...configDefaults.exclude, 'packages/hub/**'],
          globalSetup: ['./packages/testkit/src/vitest/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Two cores: keep the cluster responsive.
          maxWorkers: 2,
        },
      },
      // The hub's integration tests run twice, once per database it supports.
      {
        test: {
          name: 'hub-sqlite',
          include: ['packages/hub/src/**/*.int.test.ts'],
          // Several replicas need one shared PostgreSQL: the embedded SQLite is refused with Redis.
          exclude: ['packages/hub/src/features/replicas/**'],
          env: { BINNACLE_TEST_DATABASE: 'sqlite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'hub-postgres',
          include: ['packages/hub/src/**/*.int.test.ts'],
          env: { BINNACLE_TEST_DATABASE: 'postgres' },
          globalSetup: ['./packages/testkit/src/vitest/postgres-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
