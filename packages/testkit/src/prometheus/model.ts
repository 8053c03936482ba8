import type { Inventory, InventoryPod, Resources } from './inventory.ts';

/** One series: a metric name, its labels and its value at sample `index` (time `start + index × step`). */
export interface Series {
  name: string;
  labels: Record<string, string>;
  value(index: number, seconds: number): number;
}

/** The usage a container's series were generated from: what a test can compute expected answers with. */
export interface ContainerTruth {
  namespace: string;
  pod: string;
  container: string;
  node: string;
  owner: { kind: string; name: string };
  /** CPU use is constant, so rate() over any window of `container_cpu_usage_seconds_total` is exactly this. */
  cpuCores: number;
  /** Working-set memory moves between these two and reaches the peak at least once an hour and a half. */
  memoryBaseBytes: number;
  memoryPeakBytes: number;
  requests: Resources;
  limits: Resources;
}

export interface PodNetworkTruth {
  namespace: string;
  pod: string;
  receiveBytesPerSecond: number;
  transmitBytesPerSecond: number;
}

export interface NodePrice {
  node: string;
  cpuCores: number;
  memoryBytes: number;
  /** OpenCost's node_cpu_hourly_cost (per vCPU) and node_ram_hourly_cost (per GiB). */
  cpuHourlyCost: number;
  ramHourlyCostPerGiB: number;
  totalHourlyCost: number;
}

export interface FlowTruth {
  source: { namespace: string; workload: string; kind: string };
  destination: { namespace: string; workload: string; kind: string; port: number };
  requestsPerSecond: number;
  /** Share of requests answered 500 (the rest 200). */
  errorRatio: number;
  bytesPerSecond: number;
}

/** The generated history and what it was generated from. */
export interface GeneratedMetrics {
  seed: number;
  /** Unix seconds of the first and the last sample; samples are `stepSeconds` apart. */
  start: number;
  end: number;
  stepSeconds: number;
  inventory: Inventory;
  containers: ContainerTruth[];
  network: PodNetworkTruth[];
  nodes: NodePrice[];
  flows: FlowTruth[];
  pvHourlyCostPerGiB: number;
  clusterManagementHourlyCost: number;
  series: Series[];
  /** Samples in all series together. */
  samples: number;
}

/**
 * A stateless seeded random number in [0, 1) for (seed, a, b): the same inputs give the same number in every
 * run and in any order of calls, so series can be written in any order and still agree (a 32-bit integer hash).
 */
export function seeded(seed: number, a: number, b = 0): number {
  let h = (seed ^ Math.imul(a + 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x7f4a7c15, 0xc2b2ae35)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x21f0aaad);
  h = Math.imul(h ^ (h >>> 15), 0x735a2d97);
  return ((h ^ (h >>> 15)) >>> 0) / 2 ** 32;
}

/** A stable integer for a name, so a pod's numbers do not depend on how many pods came before it. */
export function nameHash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** A value rounded to a fixed number of decimals so sums in tests and in PromQL agree. */
export const round = (value: number, decimals: number) => Number(value.toFixed(decimals));

export const podKey = (pod: Pick<InventoryPod, 'namespace' | 'name'>) => `${pod.namespace}/${pod.name}`;
