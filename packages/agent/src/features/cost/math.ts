/** What a pod used and was allotted over the window, as read from the store (cores and bytes, hourly averages). */
export interface PodUse {
  namespace: string;
  pod: string;
  node: string;
  cpuAllocationCores: number;
  memoryAllocationBytes: number;
  cpuUsageCores: number;
  memoryUsageBytes: number;
  /** Share of the window the pod existed (0–1): its averages are scaled by it so short-lived pods weigh less. */
  share: number;
}

/** OpenCost's prices for one node: per vCPU-hour and per GiB-hour. */
export interface NodePrice {
  node: string;
  cpuHourlyCost: number;
  ramHourlyCostPerGiB: number;
  instanceType?: string;
  region?: string;
}

export interface Figures {
  hourlyCost: number;
  cpuCost: number;
  memoryCost: number;
  storageCost: number;
  cpuUsageCost: number;
  memoryUsageCost: number;
  /** Usage cost over allocation cost in percent (0–100); null when nothing was allocated. */
  efficiency: number | null;
}

export interface PricedPod extends PodUse {
  cpuCost: number;
  memoryCost: number;
  cpuUsageCost: number;
  memoryUsageCost: number;
}

const gib = 2 ** 30;
/** Costs to the millionth of a unit: hourly prices of small pods are fractions of a cent. */
export const money = (value: number) => Math.round(value * 1e6) / 1e6;

/** Prices each pod at its node's rates; a pod on a node OpenCost has no price for costs nothing. */
export function pricePods(pods: PodUse[], prices: NodePrice[]): PricedPod[] {
  const byNode = new Map(prices.map((p) => [p.node, p]));
  return pods.map((pod) => {
    const price = byNode.get(pod.node);
    const cpu = (price?.cpuHourlyCost ?? 0) * pod.share;
    const ram = ((price?.ramHourlyCostPerGiB ?? 0) * pod.share) / gib;
    return {
      ...pod,
      cpuCost: pod.cpuAllocationCores * cpu,
      memoryCost: pod.memoryAllocationBytes * ram,
      cpuUsageCost: pod.cpuUsageCores * cpu,
      memoryUsageCost: pod.memoryUsageBytes * ram,
    };
  });
}

export function efficiency(usageCost: number, allocationCost: number): number | null {
  if (allocationCost <= 0) return null;
  // Allocation is max(request, usage) per sample, so usage stays below it except for scrape skew.
  return Math.min(100, Math.round((usageCost / allocationCost) * 10_000) / 100);
}

/** Sums priced pods (and storage) into one set of figures, rounded once at the end. */
export function total(pods: PricedPod[], storageCost = 0): Figures {
  const sum = (field: 'cpuCost' | 'memoryCost' | 'cpuUsageCost' | 'memoryUsageCost') =>
    pods.reduce((acc, pod) => acc + pod[field], 0);
  const cpuCost = sum('cpuCost');
  const memoryCost = sum('memoryCost');
  const cpuUsageCost = sum('cpuUsageCost');
  const memoryUsageCost = sum('memoryUsageCost');
  return {
    hourlyCost: money(cpuCost + memoryCost + storageCost),
    cpuCost: money(cpuCost),
    memoryCost: money(memoryCost),
    storageCost: money(storageCost),
    cpuUsageCost: money(cpuUsageCost),
    memoryUsageCost: money(memoryUsageCost),
    efficiency: efficiency(cpuUsageCost + memoryUsageCost, cpuCost + memoryCost),
  };
}

/** Groups priced pods by a key (namespace, workload) and totals each group, most expensive first. */
export function rollup<K extends string>(
  pods: PricedPod[],
  keyOf: (pod: PricedPod) => K,
  storageOf: (key: K) => number = () => 0,
): { key: K; pods: number; figures: Figures }[] {
  return [...Map.groupBy(pods, keyOf)]
    .map(([key, group]) => ({ key, pods: group.length, figures: total(group, storageOf(key)) }))
    .sort((a, b) => b.figures.hourlyCost - a.figures.hourlyCost || a.key.localeCompare(b.key));
}

export interface NodeCapacity {
  node: string;
  cpuCores: number;
  memoryBytes: number;
}

/** A node's hourly cost: its prices times its capacity (what the provider bills, used or not). */
export function nodeCosts(prices: NodePrice[], capacity: NodeCapacity[]) {
  const byNode = new Map(capacity.map((c) => [c.node, c]));
  return prices.map((price) => {
    const size = byNode.get(price.node);
    const cpuCost = price.cpuHourlyCost * (size?.cpuCores ?? 0);
    const memoryCost = (price.ramHourlyCostPerGiB * (size?.memoryBytes ?? 0)) / gib;
    return {
      name: price.node,
      ...(price.instanceType ? { instanceType: price.instanceType } : {}),
      ...(price.region ? { region: price.region } : {}),
      cpuCores: size?.cpuCores ?? 0,
      memoryBytes: size?.memoryBytes ?? 0,
      cpuHourlyCost: price.cpuHourlyCost,
      ramHourlyCostPerGiB: price.ramHourlyCostPerGiB,
      hourlyCost: money(cpuCost + memoryCost),
      cpuCost: money(cpuCost),
      memoryCost: money(memoryCost),
    };
  });
}

/** What nodes cost beyond what pods were allotted; never below zero (allocation past capacity is not a credit). */
export const idleCost = (nodesHourly: number, allocatedHourly: number) =>
  money(Math.max(0, nodesHourly - allocatedHourly));

export interface Volume {
  persistentVolume: string;
  hourlyCostPerGiB: number;
  bytes: number;
  claim?: { namespace: string; name: string };
}

/** A volume's hourly cost: OpenCost's per-GiB price times its capacity. */
export const volumeCost = (volume: Volume) => (volume.hourlyCostPerGiB * volume.bytes) / gib;
