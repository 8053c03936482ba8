import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** A process that sets the tuning (given `flags` as its own), then allocates as a sync does; its young generation's size. */
function youngGenerationAfterLoad(flags: string[]): number {
  const heap = resolve(import.meta.dirname, 'heap.ts');
  const script = `
    const { keepHeapNearLiveData } = await import(${JSON.stringify(heap)});
    keepHeapNearLiveData(${JSON.stringify(flags)});
    const kept = [];
    for (let i = 0; i < 200_000; i += 1) {
      const object = { name: 'pod-' + i, labels: { app: 'a' + (i % 100) }, spec: [i, i + 1] };
      if (i % 4 === 0) kept.push(object);
    }
    const v8 = await import('node:v8');
    const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    process.stdout.write(kept.length > 0 ? String(young.space_size) : 'nothing kept');`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

describe('keepHeapNearLiveData', () => {
  it('keeps the young generation at its first size under load', () => {
    expect(youngGenerationAfterLoad([])).toBeLessThanOrEqual(4 * 1024 * 1024);
  });

  it('leaves a flag the process was started with alone', () => {
    expect(youngGenerationAfterLoad(['--semi-space-growth-factor=2'])).toBeGreaterThan(4 * 1024 * 1024);
  });
});
