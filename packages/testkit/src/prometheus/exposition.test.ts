import { describe, expect, it } from 'vitest';
import { importLines } from './exposition.ts';
import { generateMetrics } from './generate.ts';
import type { Inventory } from './inventory.ts';

const inventory: Inventory = {
  nodes: [
    { name: 'node-a', cpuCores: 4, memoryBytes: 8 * 2 ** 30, instanceType: 'kwok.standard', region: 'local' },
  ],
  pods: ['web-1', 'web-2'].map((name) => ({
    namespace: 'shop',
    name,
    node: 'node-a',
    owner: { kind: 'Pod', name },
    containers: [{ name: 'app', requests: { cpu: 0.1, memory: 64 * 2 ** 20 }, limits: {} }],
  })),
  volumes: [],
};

describe('importLines', () => {
  const metrics = generateMetrics(inventory, { hours: 1, stepSeconds: 30, now: 1_800_000_000 });
  const lines = [...importLines(metrics, 1)].join('').trimEnd().split('\n');
  const parsed = lines.map(
    (line) => JSON.parse(line) as { metric: Record<string, string>; values: number[]; timestamps: number[] },
  );

  it('writes one JSON line per series with every sample, timestamps in milliseconds', () => {
    expect(parsed).toHaveLength(metrics.series.length);
    expect(parsed.reduce((n, p) => n + p.values.length, 0)).toBe(metrics.samples);
    for (const p of parsed) {
      expect(p.timestamps).toHaveLength(p.values.length);
      expect(p.timestamps[0]).toBe(metrics.start * 1000);
      expect(p.timestamps.at(-1)).toBe(metrics.end * 1000);
    }
  });

  it("keeps the generator's names, labels and values", () => {
    metrics.series.forEach((series, k) => {
      expect(parsed[k]?.metric).toEqual({ __name__: series.name, ...series.labels });
      expect(parsed[k]?.values[7]).toBe(series.value(7, metrics.start + 7 * metrics.stepSeconds));
    });
  });

  it('yields chunks of about the size asked for, whole lines each', () => {
    const chunks = [...importLines(metrics, 64 * 1024)];
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk.endsWith('\n')).toBe(true);
  });
});
