import type { KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import { chartLines } from './chart-lines.ts';
import { flatSeries, thresholds, usageSeries } from './server-series.ts';

const sample = (timestamp: string, cpuMillicores: number, memoryBytes: number) => ({
  timestamp,
  cpuMillicores,
  memoryBytes,
});

describe('usageSeries', () => {
  it('turns polls into seconds and cores or bytes, one series per pod', () => {
    const histories = [
      {
        pod: 'a',
        samples: [sample('2026-11-28T12:00:00Z', 250, 100), sample('2026-11-28T12:00:30Z', 500, 200)],
      },
      { pod: 'b', samples: [sample('2026-11-28T12:00:00Z', 100, 50)] },
    ];
    const t0 = Date.parse('2026-11-28T12:00:00Z') / 1000;
    expect(usageSeries(histories, 'cpu')).toEqual([
      {
        name: 'usage',
        labels: { pod: 'a' },
        points: [
          [t0, 0.25],
          [t0 + 30, 0.5],
        ],
      },
      { name: 'usage', labels: { pod: 'b' }, points: [[t0, 0.1]] },
    ]);
    // The chart draws the pods' total and each pod, as it does for the metrics store's answers.
    const lines = chartLines(usageSeries(histories, 'memory'));
    expect(lines[0]).toMatchObject({
      label: 'Usage, all 2 pods',
      points: [
        [t0, 150],
        [t0 + 30, 200],
      ],
    });
  });
});

describe('thresholds', () => {
  const pod: KubeObject = {
    kind: 'Pod',
    spec: {
      containers: [
        { resources: { requests: { cpu: '250m', memory: '64Mi' }, limits: { memory: '128Mi' } } },
        { resources: { requests: { cpu: '250m' } } },
      ],
    },
  };

  it("sums a pod's requests and limits; a workload's template counts once per pod", () => {
    expect(thresholds(pod, 'cpu', 1)).toEqual([{ name: 'requests', value: 0.5 }]);
    expect(thresholds(pod, 'memory', 1)).toEqual([
      { name: 'requests', value: 64 * 1024 ** 2 },
      { name: 'limits', value: 128 * 1024 ** 2 },
    ]);
    const deployment: KubeObject = { kind: 'Deployment', spec: { template: { spec: pod.spec } } };
    expect(thresholds(deployment, 'cpu', 3)).toEqual([{ name: 'requests', value: 1.5 }]);
  });

  it("gives a node's allocatable and capacity", () => {
    const node: KubeObject = {
      kind: 'Node',
      status: { allocatable: { cpu: '3500m' }, capacity: { cpu: '4' } },
    };
    expect(thresholds(node, 'cpu', 0)).toEqual([
      { name: 'allocatable', value: 3.5 },
      { name: 'capacity', value: 4 },
    ]);
    expect(flatSeries({ name: 'capacity', value: 4 }, 10, 20)).toEqual({
      name: 'capacity',
      labels: {},
      points: [
        [10, 4],
        [20, 4],
      ],
    });
  });
});
