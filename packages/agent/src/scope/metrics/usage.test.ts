import { describe, expect, it } from 'vitest';
import { sampleOf, specTotal } from './usage.ts';

type Containers = Parameters<typeof specTotal>[0];

describe('sampleOf', () => {
  it('reads PodMetrics: nanocores to millicores, quantities to bytes, the pod as the sum of its containers', () => {
    expect(
      sampleOf({
        metadata: { name: 'web-1', namespace: 'shop' },
        timestamp: '2026-01-01T00:00:00Z',
        window: '15.003s',
        containers: [
          { name: 'app', usage: { cpu: '1999945n', memory: '24Mi' } },
          { name: 'proxy', usage: { cpu: '250m', memory: '1Gi' } },
        ],
      }),
    ).toEqual({
      name: 'web-1',
      namespace: 'shop',
      timestamp: '2026-01-01T00:00:00Z',
      windowSeconds: 15.003,
      cpuMillicores: 252,
      memoryBytes: 24 * 1024 ** 2 + 1024 ** 3,
      containers: [
        { name: 'app', cpuMillicores: 2, memoryBytes: 24 * 1024 ** 2 },
        { name: 'proxy', cpuMillicores: 250, memoryBytes: 1024 ** 3 },
      ],
    });
  });

  it('reads NodeMetrics, whose usage is the node total', () => {
    expect(
      sampleOf({
        metadata: { name: 'n1' },
        timestamp: 't',
        window: '1m0.5s',
        usage: { cpu: '2', memory: '3904Ki' },
      }),
    ).toEqual({
      name: 'n1',
      timestamp: 't',
      windowSeconds: 60.5,
      cpuMillicores: 2000,
      memoryBytes: 3904 * 1024,
    });
  });
});

describe('specTotal', () => {
  const containers: Containers = [
    { resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '1' } } },
    { resources: { requests: { cpu: '0.5' } } },
    {},
  ];
  it('sums what the containers declare, in millicores or bytes', () => {
    expect(specTotal(containers, 'requests', 'cpu')).toBe(600);
    expect(specTotal(containers, 'requests', 'memory')).toBe(64 * 1024 ** 2);
    expect(specTotal(containers, 'limits', 'cpu')).toBe(1000);
  });
  it('is undefined when no container declares it', () => {
    expect(specTotal(containers, 'limits', 'memory')).toBeUndefined();
  });
});
