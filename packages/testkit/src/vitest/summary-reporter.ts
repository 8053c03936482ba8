import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest files the summary names: enough to see where the CI test phase's budget goes. */
const slowestShown = 15;

/**
 * The slowest files of a run, slowest first, as `  <seconds> s  <path>` lines (the path relative to `root`):
 * what `slowFirst` in sequencer.ts is kept in step with, and what to trim when the test phase nears its budget.
 */
export function slowestFiles(
  modules: ReadonlyArray<{ moduleId: string; seconds: number }>,
  root: string,
): string[] {
  return [...modules]
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, slowestShown)
    .map(
      ({ moduleId, seconds }) => `${seconds.toFixed(0).padStart(5)} s  ${moduleId.replace(`${root}/`, '')}`,
    );
}

/** Prints the slowest files and one closing `N passed, N failed` line (plus skipped, if any) that CI reads. */
export class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed += 1;
        else if (state === 'failed') counts.failed += 1;
        else counts.skipped += 1;
      }
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) counts.failed += 1;
    }
    counts.failed += unhandledErrors.length;
    const durations = testModules.map((module) => ({
      moduleId: module.moduleId,
      seconds: module.diagnostic().duration / 1000,
    }));
    const slowest = slowestFiles(durations, process.cwd());
    process.stdout.write(`\nslowest files:\n${slowest.join('\n')}\n`);
    const skipped = counts.skipped > 0 ? `, ${counts.skipped} skipped` : '';
    process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed${skipped}\n`);
  }
}
