import { DurationError, parseDuration, parseQuantity } from '@binnacle/common';

/** What metrics.k8s.io answers for one pod or node (v1beta1 PodMetrics / NodeMetrics). */
export interface RawMetrics {
  metadata?: { name?: string; namespace?: string };
  timestamp?: string;
  window?: string;
  usage?: Record<string, string>;
  containers?: { name?: string; usage?: Record<string, string> }[];
}

export interface Usage {
  cpuMillicores: number;
  memoryBytes: number;
}

export interface ContainerUsage extends Usage {
  name: string;
}

/** One pod's or node's usage at one time: what the routes answer and the history keeps. */
export interface Sample extends Usage {
  name: string;
  namespace?: string;
  timestamp: string;
  windowSeconds: number;
  containers?: ContainerUsage[];
}

const millicores = (quantity: string | undefined) => round3((parseQuantity(quantity ?? '0') ?? 0) * 1000);
const bytes = (quantity: string | undefined) => Math.round(parseQuantity(quantity ?? '0') ?? 0);
/** Millicores keep three decimals (whole nanocores would be noise). */
const round3 = (value: number) => Math.round(value * 1000) / 1000;

/** metrics-server writes its window as a Go duration (`15.003s`, `1m0.5s`). */
function windowSeconds(window: string | undefined): number {
  try {
    return window ? parseDuration(window, 'window') / 1000 : 0;
  } catch (error) {
    if (error instanceof DurationError) return 0;
    throw error;
  }
}

const usageOf = (usage: Record<string, string> | undefined): Usage => ({
  cpuMillicores: millicores(usage?.cpu),
  memoryBytes: bytes(usage?.memory),
});

/** A PodMetrics or NodeMetrics object as a sample; a pod's usage is the sum of its containers'. */
export function sampleOf(raw: RawMetrics): Sample {
  const base = {
    name: raw.metadata?.name ?? '',
    ...(raw.metadata?.namespace ? { namespace: raw.metadata.namespace } : {}),
    timestamp: raw.timestamp ?? new Date(0).toISOString(),
    windowSeconds: windowSeconds(raw.window),
  };
  if (!raw.containers) return { ...base, ...usageOf(raw.usage) };
  const containers = raw.containers.map((c) => ({ name: c.name ?? '', ...usageOf(c.usage) }));
  return {
    ...base,
    cpuMillicores: round3(containers.reduce((sum, c) => sum + c.cpuMillicores, 0)),
    memoryBytes: containers.reduce((sum, c) => sum + c.memoryBytes, 0),
    containers,
  };
}

/** Sums a resource over the containers of a pod spec (requests or limits), in millicores or bytes. */
export function specTotal(
  containers: { resources?: { requests?: Record<string, string>; limits?: Record<string, string> } }[],
  field: 'requests' | 'limits',
  resource: 'cpu' | 'memory',
): number | undefined {
  let total: number | undefined;
  for (const container of containers) {
    const quantity = container.resources?.[field]?.[resource];
    if (quantity === undefined) continue;
    total = (total ?? 0) + (resource === 'cpu' ? millicores(quantity) : bytes(quantity));
  }
  return total;
}
