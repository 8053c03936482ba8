import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { worthCollecting } from './heap.ts';

/**
 * A process that sets the tuning of `command` (given `flags` as its own), then allocates as a sync does: its young generation's
 * size before and after.
 */
function youngGeneration(command: string, flags: string[]): { first: number; afterLoad: number } {
  const heap = resolve(import.meta.dirname, 'heap.ts');
  const script = `
    const v8 = await import('node:v8');
    const young = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
    const { heapTuning, keepHeapNearLiveData } = await import(${JSON.stringify(heap)});
    keepHeapNearLiveData(heapTuning(${JSON.stringify(command)}), ${JSON.stringify(flags)});
    const first = young();
    const kept = [];
    for (let i = 0; i < 200_000; i += 1) {
      const object = { name: 'pod-' + i, labels: { app: 'a' + (i % 100) }, spec: [i, i + 1] };
      if (i % 4 === 0) kept.push(object);
    }
    process.stdout.write(kept.length > 0 ? JSON.stringify({ first, afterLoad: young() }) : 'nothing kept');`;
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }),
  );
}

describe('keepHeapNearLiveData', () => {
  // V8 sizes the young generation from the machine (1–4.25 MB here, by load): the figure that matters is that it
  // stays near that start instead of doubling to 32 MB as it does on its own under the same allocations.
  it('keeps the young generation near its first size under load', () => {
    for (const command of ['agent', 'desktop']) {
      const { first, afterLoad } = youngGeneration(command, []);
      expect(afterLoad).toBeLessThanOrEqual(Math.max(2 * first, 8 * 1024 * 1024));
    }
  });

  // ADR 0125: the hub's tunneled requests live a few milliseconds; a young generation pinned at 1 MB promoted them.
  it("lets the hub's young generation grow", () => {
    const { afterLoad } = youngGeneration('hub', []);
    expect(afterLoad).toBeGreaterThan(16 * 1024 * 1024);
  });

  it('leaves a flag the process was started with alone', () => {
    const { afterLoad } = youngGeneration('agent', ['--semi-space-growth-factor=2']);
    expect(afterLoad).toBeGreaterThan(16 * 1024 * 1024);
  });
});

describe('collectWhenIdle', () => {
  const mb = 1024 * 1024;

  it('collects an idle process holding a tenth more than its live data, never a busy one', () => {
    expect(worthCollecting({ usedBytes: 170 * mb, baselineBytes: 150 * mb, busy: 0.01 })).toBe(true);
    expect(worthCollecting({ usedBytes: 170 * mb, baselineBytes: 150 * mb, busy: 0.2 })).toBe(false);
    expect(worthCollecting({ usedBytes: 160 * mb, baselineBytes: 150 * mb, busy: 0 })).toBe(false);
    // A small process waits for 8 MB of garbage.
    expect(worthCollecting({ usedBytes: 34 * mb, baselineBytes: 30 * mb, busy: 0 })).toBe(false);
    expect(worthCollecting({ usedBytes: 39 * mb, baselineBytes: 30 * mb, busy: 0 })).toBe(true);
  });

  it('hands the garbage of a burst back once the process goes quiet (V8 alone keeps it)', () => {
    const heap = resolve(import.meta.dirname, 'heap.ts');
    const script = `
      const { collectWhenIdle, heapTuning, keepHeapNearLiveData } = await import(${JSON.stringify(heap)});
      const { getHeapStatistics } = await import('node:v8');
      keepHeapNearLiveData(heapTuning('agent'), []);
      const kept = Array.from({ length: 100_000 }, (_, i) => ({ name: 'pod-' + i, spec: [i] }));
      collectWhenIdle(200);
      for (let round = 0; round < 5; round += 1) JSON.parse(JSON.stringify(kept));
      const after = getHeapStatistics().used_heap_size;
      await new Promise((done) => setTimeout(done, 1000));
      const quiet = getHeapStatistics().used_heap_size;
      process.stdout.write(JSON.stringify({ after, quiet, kept: kept.length }));`;
    const { after, quiet } = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }),
    ) as { after: number; quiet: number };
    expect(quiet).toBeLessThan(after * 0.8);
  }, 30_000);
});
