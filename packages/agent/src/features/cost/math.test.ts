import { describe, expect, it } from 'vitest';
import {
  efficiency,
  idleCost,
  nodeCosts,
  type PodUse,
  pricePods,
  rollup,
  total,
  volumeCost,
} from './math.ts';

const gib = 2 ** 30;
const pod = (overrides: Partial<PodUse>): PodUse => ({
  namespace: 'shop',
  pod: 'web-1',
  node: 'n1',
  cpuAllocationCores: 0,
  memoryAllocationBytes: 0,
  cpuUsageCores: 0,
  memoryUsageBytes: 0,
  share: 1,
  ...overrides,
});
const prices = [
  { node: 'n1', cpuHourlyCost: 0.03, ramHourlyCostPerGiB: 0.004 },
  { node: 'n2', cpuHourlyCost: 0.05, ramHourlyCostPerGiB: 0.002 },
];

describe('cost math', () => {
  it("prices allocation and usage at the pod's node, scaled by the share of the window it ran", () => {
    const [a, b] = pricePods(
      [
        pod({
          cpuAllocationCores: 2,
          memoryAllocationBytes: 4 * gib,
          cpuUsageCores: 1,
          memoryUsageBytes: gib,
        }),
        pod({ pod: 'job-1', node: 'n2', cpuAllocationCores: 1, memoryAllocationBytes: 2 * gib, share: 0.5 }),
      ],
      prices,
    );
    expect([a?.cpuCost, a?.memoryCost, a?.cpuUsageCost, a?.memoryUsageCost]).toEqual([
      0.06, 0.016, 0.03, 0.004,
    ]);
    expect([b?.cpuCost, b?.memoryCost]).toEqual([0.025, 0.002]);
  });

  it('charges nothing for a pod on a node without a price', () => {
    const [a] = pricePods([pod({ node: 'gone', cpuAllocationCores: 4 })], prices);
    expect(a?.cpuCost).toBe(0);
  });

  it('totals CPU, memory and storage, and efficiency is usage over allocation in percent, capped at 100', () => {
    const priced = pricePods(
      [
        pod({
          cpuAllocationCores: 2,
          memoryAllocationBytes: 4 * gib,
          cpuUsageCores: 1,
          memoryUsageBytes: gib,
        }),
      ],
      prices,
    );
    expect(total(priced, 0.01)).toEqual({
      hourlyCost: 0.086,
      cpuCost: 0.06,
      memoryCost: 0.016,
      storageCost: 0.01,
      cpuUsageCost: 0.03,
      memoryUsageCost: 0.004,
      efficiency: 44.74,
    });
    expect(efficiency(2, 1)).toBe(100);
    expect(efficiency(0, 0)).toBeNull();
  });

  it('rolls pods up by a key, most expensive first, with each group’s storage', () => {
    const priced = pricePods(
      [
        pod({ cpuAllocationCores: 1 }),
        pod({ pod: 'web-2', cpuAllocationCores: 1 }),
        pod({ namespace: 'data', pod: 'db-0', cpuAllocationCores: 1 }),
      ],
      prices,
    );
    const rows = rollup(
      priced,
      (p) => p.namespace,
      (ns) => (ns === 'data' ? 0.1 : 0),
    );
    expect(rows.map((r) => [r.key, r.pods, r.figures.hourlyCost])).toEqual([
      ['data', 1, 0.13],
      ['shop', 2, 0.06],
    ]);
  });

  it('costs a node as its prices times its capacity, and idle as the rest, never below zero', () => {
    const [n1] = nodeCosts(prices, [{ node: 'n1', cpuCores: 4, memoryBytes: 16 * gib }]);
    expect(n1).toMatchObject({ name: 'n1', cpuCost: 0.12, memoryCost: 0.064, hourlyCost: 0.184 });
    expect(idleCost(0.184, 0.084)).toBe(0.1);
    expect(idleCost(0.1, 0.2)).toBe(0);
  });

  it('costs a volume as its per-GiB price times its size', () => {
    expect(volumeCost({ persistentVolume: 'pv', hourlyCostPerGiB: 0.0001, bytes: 10 * gib })).toBeCloseTo(
      0.001,
      12,
    );
  });
});
