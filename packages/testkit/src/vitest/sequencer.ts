import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that take 20 s or more (measured in a whole run on two cores, seconds in the comment), in the order they
 * should start. Vitest starts the slowest files first only when it has durations from an earlier run on the
 * same machine; a fresh CI clone has none, so it went by file size, and a three-minute file could start last
 * and hold the run open alone. Paths are relative to the repository root.
 */
export const slowFirst = [
  'test/e2e/openapi-fuzz.int.test.ts', // 130
  'packages/agent/src/features/sessions/cycles.int.test.ts', // 90
  'scripts/static-checks.test.ts', // 79
  'packages/agent/src/cli/settings.int.test.ts', // 72
  'test/e2e/web-hub-pages.int.test.ts', // 65
  'test/e2e/web-agent.int.test.ts', // 64
  'packages/agent/src/kube/reconnect.int.test.ts', // 57
  'packages/agent/src/features/metricsdb/store-outage.int.test.ts', // 40
  'packages/agent/src/features/timeline/restart.int.test.ts', // 27
  'packages/testkit/src/cluster/lifecycle.int.test.ts', // 26
  'packages/cli/src/single-executable.int.test.ts', // 25
  'scripts/start.int.test.ts', // 24
  'test/e2e/cloud.int.test.ts', // 24
  'test/e2e/web-helm.int.test.ts', // 23
  'packages/agent/src/features/contexts/contexts.int.test.ts', // 22
  'test/e2e/web-cost.int.test.ts', // 21
  'packages/agent/src/features/traffic/traffic-stream.int.test.ts', // 21
  'test/e2e/web-audit.int.test.ts', // 20
];

const rank = (spec: TestSpecification) => {
  const index = slowFirst.findIndex((path) => spec.moduleId.endsWith(`/${path}`));
  return index === -1 ? slowFirst.length : index;
};

/** Vitest's order (its measured durations when it has them), with the files known to be slow moved first. */
export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    return base
      .map((spec, position) => ({ spec, position, rank: rank(spec) }))
      .sort((a, b) => a.rank - b.rank || a.position - b.position)
      .map(({ spec }) => spec);
  }
}
