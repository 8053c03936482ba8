import { defineConfig } from 'vitest/config';
import { SummaryReporter } from './packages/testkit/src/vitest/summary-reporter.ts';

// Unit tests run anywhere in seconds. Integration tests (*.int.test.ts) share one real, seeded control plane
// started by the global setup; they fail when a component is missing, they never skip.
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
        test: { name: 'checks', include: ['scripts/static-checks.test.ts'], testTimeout: 120_000 },
      },
      {
        test: {
          name: 'integration',
          include: ['packages/*/src/**/*.int.test.ts', 'test/**/*.int.test.ts', 'scripts/**/*.int.test.ts'],
          globalSetup: ['./packages/testkit/src/vitest/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Two cores: keep the cluster responsive.
          maxWorkers: 2,
        },
      },
    ],
  },
});
