import { parseQuantity } from '@binnacle/common';
import type { ContainerUsage } from '../../metrics/usage.ts';
import { containerCheck, type PodView, podCheck } from './define.ts';
import { containersOf } from './pod-spec.ts';
import type { AuditContext, Check } from './types.ts';
import { nameOf, namespaceOf, type Obj, obj, str } from './values.ts';

type Field = 'requests' | 'limits';
type Resource = 'cpu' | 'memory';

/** A container's request or limit as the API server keeps it: a request left out defaults to the limit. */
function quantityOf(container: Obj, field: Field, resource: Resource): string | undefined {
  const resources = obj(container.resources);
  const own = str(obj(resources[field])[resource]);
  return field === 'requests' ? (own ?? str(obj(resources.limits)[resource])) : own;
}

/** The four "missing" checks: which field and resource each wants set. */
const missing: [id: string, field: Field, resource: Resource][] = [
  ['cpuRequestMissing', 'requests', 'cpu'],
  ['memoryRequestMissing', 'requests', 'memory'],
  ['cpuLimitMissing', 'limits', 'cpu'],
  ['memoryLimitMissing', 'limits', 'memory'],
];

interface Meter {
  resource: Resource;
  label: string;
  used: (u: ContainerUsage) => number;
  /** From the quantity's base unit (cores, bytes) to the usage's (millicores, bytes). */
  scale: number;
  unit: (v: number) => string;
}

/** How usage is compared with requests, per resource. */
const meters: Meter[] = [
  {
    resource: 'cpu',
    label: 'CPU',
    used: (u) => u.cpuMillicores,
    scale: 1000,
    unit: (v) => `${Math.round(v)}m`,
  },
  {
    resource: 'memory',
    label: 'memory',
    used: (u) => u.memoryBytes,
    scale: 1,
    unit: (v) => `${Math.round(v / 2 ** 20)}Mi`,
  },
];

export const utilizationBounds = { low: 0.1, high: 0.9 } as const;

/** Each main container's average usage against its requests, over the workload's pods that have metrics. */
function utilization(pod: PodView, context: AuditContext) {
  const samples = context
    .podsOf(pod.object)
    .map((p) => context.podUsage(namespaceOf(p), nameOf(p)))
    .filter((usage) => usage !== undefined);
  if (samples.length === 0) return [];
  return containersOf(pod.spec, 'main').flatMap((c) =>
    meters.map(({ resource, label, used, scale, unit }) => {
      const request = (parseQuantity(quantityOf(c.spec, 'requests', resource) ?? '') ?? 0) * scale;
      const usages = samples.flatMap((s) => s.filter((u) => u.name === c.name).map(used));
      if (request <= 0 || usages.length === 0) return undefined;
      const average = usages.reduce((sum, v) => sum + v, 0) / usages.length;
      const ratio = average / request;
      if (ratio >= utilizationBounds.low && ratio <= utilizationBounds.high) return undefined;
      const pods = usages.length === 1 ? '1 pod' : `${usages.length} pods`;
      return {
        container: c.name,
        message: `uses ${Math.round(ratio * 100)}% of its ${label} request (${unit(average)} of ${unit(request)}, average over ${pods})`,
      };
    }),
  );
}

export const efficiencyChecks: Check[] = [
  ...missing.map(([id, field, resource]) =>
    containerCheck(id, 'main', (c) =>
      quantityOf(c.spec, field, resource) === undefined
        ? `sets no ${resource} ${field.slice(0, -1)}`
        : undefined,
    ),
  ),
  podCheck('resourceUtilization', utilization, [
    'Pod',
    'Deployment',
    'StatefulSet',
    'DaemonSet',
    'ReplicaSet',
    'ReplicationController',
  ]),
];
