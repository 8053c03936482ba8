import { type KubeObject, parseQuantity } from '@binnacle/common';
import type { Answer } from '../../api/client.ts';
import type { ApiSeries } from './chart-lines.ts';

/** One poll of metrics-server the agent kept (`/api/metrics/…/history`). */
export type HistorySample = Answer<'/api/metrics/nodes/{name}/history'>['samples'][number];

export type Category = 'cpu' | 'memory';

const figure = (s: HistorySample, category: Category) =>
  category === 'cpu' ? s.cpuMillicores / 1000 : s.memoryBytes;

/**
 * The usage series of one object, or of each pod of a workload (labelled by pod, as the metrics store's routes
 * label theirs), in the shape `chartLines` draws: seconds and cores or bytes.
 */
export function usageSeries(
  histories: { pod?: string; samples: HistorySample[] }[],
  category: Category,
): ApiSeries[] {
  return histories.map((h) => ({
    name: 'usage',
    labels: h.pod ? { pod: h.pod } : ({} as Record<string, string>),
    points: h.samples.map((s) => [Date.parse(s.timestamp) / 1000, figure(s, category)]),
  }));
}

type Quantities = Record<string, string> | undefined;
interface Container {
  resources?: { requests?: Quantities; limits?: Quantities };
}

const resourceName = { cpu: 'cpu', memory: 'memory' } as const;

/** The containers' total of one side (requests or limits); undefined when no container sets it. */
function containersTotal(containers: Container[], side: 'requests' | 'limits', category: Category) {
  const values = containers
    .map((c) => c.resources?.[side]?.[resourceName[category]])
    .filter((q): q is string => q !== undefined)
    .map((q) => parseQuantity(q) ?? 0);
  return values.length === 0 ? undefined : values.reduce((a, b) => a + b, 0);
}

/** A workload's pod template, wherever its kind keeps it. */
function podSpecOf(resource: KubeObject): { containers?: Container[] } | undefined {
  if (resource.kind === 'Pod') return resource.spec as { containers?: Container[] };
  const template = resource.spec?.template as { spec?: { containers?: Container[] } } | undefined;
  return template?.spec;
}

/**
 * The flat lines drawn beside usage, as the metrics store's routes send them: a node's allocatable and capacity;
 * a pod's requests and limits, a workload's those of its template times the pods drawn.
 */
export function thresholds(
  resource: KubeObject,
  category: Category,
  pods: number,
): { name: string; value: number }[] {
  if (resource.kind === 'Node') {
    const status = (resource.status ?? {}) as { allocatable?: Quantities; capacity?: Quantities };
    return (['allocatable', 'capacity'] as const).flatMap((name) => {
      const value = parseQuantity(status[name]?.[resourceName[category]] ?? '');
      return value === undefined ? [] : [{ name, value }];
    });
  }
  const containers = podSpecOf(resource)?.containers ?? [];
  return (['requests', 'limits'] as const).flatMap((name) => {
    const value = containersTotal(containers, name, category);
    return value === undefined ? [] : [{ name, value: value * pods }];
  });
}

/** A threshold as a series over the chart's window. */
export const flatSeries = (t: { name: string; value: number }, from: number, to: number): ApiSeries => ({
  name: t.name,
  labels: {},
  points: [
    [from, t.value],
    [to, t.value],
  ],
});
