import { describe, expect, it } from 'vitest';
import { niceStep, timeTicks, valueTicks } from './chart-scale.ts';
import { formatBytes, formatCores, formatMoney } from './units.ts';

describe('value axis', () => {
  it('steps by 1, 2, 2.5 or 5 times a power of ten', () => {
    expect([niceStep(1, 4), niceStep(7, 4), niceStep(0.09, 4), niceStep(450, 4)]).toEqual([
      0.25, 2, 0.025, 200,
    ]);
  });

  it('writes CPU in millicores under a core and reaches at least the largest value', () => {
    const ticks = valueTicks('cores', 0.37);
    expect(ticks.map((t) => t.label)).toEqual(['0', '100m', '200m', '300m', '400m']);
  });

  it('steps memory in binary units', () => {
    const ticks = valueTicks('bytes', 300 * 2 ** 20);
    expect(ticks.map((t) => t.label)).toEqual(['0 MiB', '100 MiB', '200 MiB', '300 MiB']);
  });

  it('writes money ticks with the same decimals', () => {
    expect(valueTicks('USD/h', 0.06).map((t) => t.label)).toEqual(['$0.00', '$0.02', '$0.04', '$0.06']);
  });

  it('spans one unit when every value is zero', () => {
    expect(valueTicks('USD/h', 0).map((t) => t.label)).toEqual(['$0.00', '$0.25', '$0.50', '$0.75', '$1.00']);
  });
});

describe('time axis', () => {
  it('puts whole hours at least the gap apart across six hours', () => {
    const from = Date.UTC(2026, 10, 26, 8, 7);
    const ticks = timeTicks(from, from + 6 * 3_600_000, 600);
    const gaps = ticks.slice(1).map((t, i) => t.value - (ticks[i]?.value ?? 0));
    expect(new Set(gaps)).toEqual(new Set([3_600_000]));
    expect(ticks.every((t) => new Date(t.value).getMinutes() === 0)).toBe(true);
  });
});

describe('units', () => {
  it('formats as Kubernetes people read them', () => {
    expect([formatCores(0.25), formatCores(1), formatCores(2.5), formatCores(0)]).toEqual([
      '250m',
      '1 core',
      '2.5 cores',
      '0',
    ]);
    expect([formatBytes(512 * 2 ** 20), formatBytes(1.5 * 2 ** 30), formatBytes(100)]).toEqual([
      '512 MiB',
      '1.5 GiB',
      '100 B',
    ]);
    expect([formatMoney(1234.5), formatMoney(0.004213), formatMoney(0)]).toEqual([
      '$1,234.50',
      '$0.00421',
      '$0',
    ]);
  });
});
