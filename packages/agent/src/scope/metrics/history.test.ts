import { describe, expect, it } from 'vitest';
import { MetricsHistory } from './history.ts';
import type { Sample } from './usage.ts';

const pod = (name: string, cpu: number, containers = ['app']): Sample => ({
  namespace: 'shop',
  name,
  timestamp: '2026-01-01T00:00:00Z',
  windowSeconds: 15,
  cpuMillicores: cpu * containers.length,
  memoryBytes: 1000 * containers.length,
  containers: containers.map((c) => ({ name: c, cpuMillicores: cpu, memoryBytes: 1000 })),
});
const node = (name: string, cpu: number): Sample => ({
  name,
  timestamp: '2026-01-01T00:00:00Z',
  windowSeconds: 15,
  cpuMillicores: cpu,
  memoryBytes: 5000,
});
const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second));

describe('MetricsHistory', () => {
  it('keeps one sample per poll, oldest first, and at most its capacity', () => {
    const history = new MetricsHistory(3);
    for (let poll = 1; poll <= 5; poll++)
      history.record(at(poll), [pod('web', poll)], [node('n1', poll * 10)]);
    expect(history.pod('shop', 'web')?.map((p) => p.cpuMillicores)).toEqual([3, 4, 5]);
    expect(history.pod('shop', 'web')?.map((p) => p.timestamp)).toEqual([
      '2026-01-01T00:00:03.000Z',
      '2026-01-01T00:00:04.000Z',
      '2026-01-01T00:00:05.000Z',
    ]);
    expect(history.node('n1')).toEqual([
      { timestamp: '2026-01-01T00:00:03.000Z', cpuMillicores: 30, memoryBytes: 5000 },
      { timestamp: '2026-01-01T00:00:04.000Z', cpuMillicores: 40, memoryBytes: 5000 },
      { timestamp: '2026-01-01T00:00:05.000Z', cpuMillicores: 50, memoryBytes: 5000 },
    ]);
    expect(history.polls).toBe(5);
  });

  it('sums containers into the pod and lists each container', () => {
    const history = new MetricsHistory(2);
    history.record(at(1), [pod('web', 2.5, ['app', 'sidecar'])], []);
    expect(history.pod('shop', 'web')).toEqual([
      {
        timestamp: '2026-01-01T00:00:01.000Z',
        cpuMillicores: 5,
        memoryBytes: 2000,
        containers: [
          { name: 'app', cpuMillicores: 2.5, memoryBytes: 1000 },
          { name: 'sidecar', cpuMillicores: 2.5, memoryBytes: 1000 },
        ],
      },
    ]);
  });

  it('leaves gaps for polls an object missed and drops it after a whole ring without it', () => {
    const history = new MetricsHistory(3);
    history.record(at(1), [pod('web', 1), pod('job', 1)], [node('n1', 1)]);
    history.record(at(2), [pod('web', 2)], undefined);
    expect(history.pod('shop', 'job')?.map((p) => p.timestamp)).toEqual(['2026-01-01T00:00:01.000Z']);
    expect(history.node('n1')).toHaveLength(1);
    history.record(at(3), [pod('web', 3)], [node('n1', 3)]);
    history.record(at(4), [pod('web', 4)], [node('n1', 4)]);
    expect(history.pod('shop', 'job')).toBeUndefined();
    expect(history.size).toEqual({ pods: 1, nodes: 1 });
    expect(history.pod('shop', 'web')?.map((p) => p.cpuMillicores)).toEqual([2, 3, 4]);
  });

  it('knows nothing of objects it never saw', () => {
    const history = new MetricsHistory(2);
    expect(history.pod('shop', 'web')).toBeUndefined();
    expect(history.node('n1')).toBeUndefined();
  });
});
