/** Usage of one container over the window, the largest of the workload's pods. */
export interface ContainerUsage {
  container: string;
  cpuP95Cores?: number;
  cpuMaxCores?: number;
  memoryMaxBytes?: number;
}

export interface CurrentResources {
  cpuRequestCores?: number;
  cpuLimitCores?: number;
  memoryRequestBytes?: number;
  memoryLimitBytes?: number;
}

export type Verdict = 'over-provisioned' | 'under-provisioned' | 'right-sized' | 'no-request' | 'no-data';

/** How recommendations are made; the answer states them so a reader can redo the sum. */
export const policy = {
  cpuPercentile: 0.95,
  cpuHeadroom: 0.15,
  memoryHeadroom: 0.2,
  minCpuCores: 0.01,
  minMemoryBytes: 16 * 2 ** 20,
  /** Within this share of the recommendation a request counts as right-sized. */
  tolerance: 0.2,
};

const mib = 2 ** 20;
/** Up to the next millicore, the unit requests are written in. */
export const roundCpu = (cores: number) => Math.ceil(Math.round(cores * 1e6) / 1e3) / 1e3;
/** Up to the next MiB. */
export const roundMemory = (bytes: number) => Math.ceil(bytes / mib) * mib;

function verdict(current: number | undefined, recommended: number | undefined): Verdict {
  if (recommended === undefined) return 'no-data';
  if (current === undefined) return 'no-request';
  if (current > recommended * (1 + policy.tolerance)) return 'over-provisioned';
  if (current < recommended) return 'under-provisioned';
  return 'right-sized';
}

/**
 * Requests from usage: CPU at its 95th percentile plus 15 %, memory at its peak working set plus 20 % (memory
 * cannot be throttled, so the peak is what must fit). A memory limit equal to the request; a CPU limit only
 * where one is set today, at twice the request. Savings are per replica (negative: more is needed).
 */
export function recommend(usage: ContainerUsage, current: CurrentResources, replicas: number) {
  const cpuRequest =
    usage.cpuP95Cores === undefined
      ? undefined
      : Math.max(policy.minCpuCores, roundCpu(usage.cpuP95Cores * (1 + policy.cpuHeadroom)));
  const memoryRequest =
    usage.memoryMaxBytes === undefined
      ? undefined
      : Math.max(policy.minMemoryBytes, roundMemory(usage.memoryMaxBytes * (1 + policy.memoryHeadroom)));
  const saving = (now: number | undefined, next: number | undefined) =>
    now === undefined || next === undefined ? undefined : now - next;
  const cpuSaving = saving(current.cpuRequestCores, cpuRequest);
  const memorySaving = saving(current.memoryRequestBytes, memoryRequest);
  return {
    container: usage.container,
    usage,
    current,
    recommended: {
      cpuRequestCores: cpuRequest,
      cpuLimitCores:
        current.cpuLimitCores !== undefined && cpuRequest !== undefined
          ? roundCpu(cpuRequest * 2)
          : undefined,
      memoryRequestBytes: memoryRequest,
      memoryLimitBytes: memoryRequest,
    },
    cpu: verdict(current.cpuRequestCores, cpuRequest),
    memory: verdict(current.memoryRequestBytes, memoryRequest),
    saving: {
      cpuCores: cpuSaving === undefined ? undefined : Number((cpuSaving * replicas).toFixed(3)),
      memoryBytes: memorySaving === undefined ? undefined : memorySaving * replicas,
    },
  };
}

export type Recommendation = ReturnType<typeof recommend>;
