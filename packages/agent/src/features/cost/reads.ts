import { instantQuery, type VectorSample } from '../../scope/metricsdb/client.ts';
import type { Connection } from '../../scope/metricsdb/stores.ts';
import type { NodeCapacity, NodePrice, PodUse, Volume } from './math.ts';

/** OpenCost's series are not in the store: an ordinary answer (`available: false`) naming them. */
export class MissingSeries extends Error {
  readonly metrics: string[];
  constructor(metrics: string[]) {
    super(
      `no OpenCost series in the metrics store: ${metrics.join(', ')} ${metrics.length > 1 ? 'are' : 'is'} missing (is OpenCost's exporter scraped?)`,
    );
    this.metrics = metrics;
  }
}

/** Containers only: cAdvisor also reports each pod's cgroup (container="") and its pause container. */
const containers = 'container!="",container!="POD"';

/**
 * Several selectors as one instant vector: `fn(metric{s1}[w]) or fn(metric{s2}[w])`, so a set of workloads in
 * different namespaces is read in one query.
 */
export const overSelectors = (selectors: string[], expression: (selector: string) => string) =>
  selectors.map(expression).join(' or ');

const numberOf = (sample: VectorSample) => {
  const value = Number(sample.value[1]);
  return Number.isFinite(value) ? value : 0;
};

export interface Reader {
  connection: Connection;
  timeoutMs: number;
  /** Evaluation time (ms) shared by every query of one answer. */
  at: number;
}

async function vector(reader: Reader, query: string): Promise<VectorSample[]> {
  const data = await instantQuery(reader.connection.endpoint, query, reader.at, reader.timeoutMs);
  return data.resultType === 'vector' ? data.result : [];
}

/** Per node: OpenCost's vCPU and GiB prices averaged over the window. Missing prices mean no OpenCost. */
export async function readPrices(reader: Reader, window: string): Promise<NodePrice[]> {
  const [cpu, ram] = await Promise.all([
    vector(reader, `avg by (node, instance_type, region) (avg_over_time(node_cpu_hourly_cost[${window}]))`),
    vector(reader, `avg by (node) (avg_over_time(node_ram_hourly_cost[${window}]))`),
  ]);
  const missing = [
    ...(cpu.length === 0 ? ['node_cpu_hourly_cost'] : []),
    ...(ram.length === 0 ? ['node_ram_hourly_cost'] : []),
  ];
  if (missing.length > 0) throw new MissingSeries(missing);
  const ramByNode = new Map(ram.map((s) => [s.metric.node ?? '', numberOf(s)]));
  return cpu.map((s) => ({
    node: s.metric.node ?? '',
    cpuHourlyCost: numberOf(s),
    ramHourlyCostPerGiB: ramByNode.get(s.metric.node ?? '') ?? 0,
    ...(s.metric.instance_type ? { instanceType: s.metric.instance_type } : {}),
    ...(s.metric.region ? { region: s.metric.region } : {}),
  }));
}

/**
 * Per pod over the window: OpenCost's allocation (max of request and usage, per container) and cAdvisor's usage,
 * each averaged while the pod ran, and the share of the window it ran (its allocation samples against the most
 * any node price has, both from OpenCost's exporter and so scraped alike).
 */
export async function readPods(reader: Reader, selectors: string[], window: string): Promise<PodUse[]> {
  if (selectors.length === 0) return [];
  const by = 'sum by (namespace, pod, node)';
  const [cpuAlloc, memAlloc, samples, full, cpuUse, memUse] = await Promise.all([
    vector(
      reader,
      `${by} (${overSelectors(selectors, (s) => `avg_over_time(container_cpu_allocation{${s}}[${window}])`)})`,
    ),
    vector(
      reader,
      `${by} (${overSelectors(selectors, (s) => `avg_over_time(container_memory_allocation_bytes{${s}}[${window}])`)})`,
    ),
    vector(
      reader,
      `max by (namespace, pod) (${overSelectors(selectors, (s) => `count_over_time(container_cpu_allocation{${s}}[${window}])`)})`,
    ),
    vector(reader, `max(count_over_time(node_cpu_hourly_cost[${window}]))`),
    vector(
      reader,
      `sum by (namespace, pod) (${overSelectors(selectors, (s) => `rate(container_cpu_usage_seconds_total{${s},${containers}}[${window}])`)})`,
    ),
    vector(
      reader,
      `sum by (namespace, pod) (${overSelectors(selectors, (s) => `avg_over_time(container_memory_working_set_bytes{${s},${containers}}[${window}])`)})`,
    ),
  ]);
  const key = (s: VectorSample) => `${s.metric.namespace}/${s.metric.pod}`;
  const index = (list: VectorSample[]) => new Map(list.map((s) => [key(s), numberOf(s)]));
  const [memory, counts, cpuUsage, memoryUsage] = [
    index(memAlloc),
    index(samples),
    index(cpuUse),
    index(memUse),
  ];
  const fullCount = full[0] ? numberOf(full[0]) : 0;
  return cpuAlloc.map((s) => ({
    namespace: s.metric.namespace ?? '',
    pod: s.metric.pod ?? '',
    node: s.metric.node ?? '',
    cpuAllocationCores: numberOf(s),
    memoryAllocationBytes: memory.get(key(s)) ?? 0,
    cpuUsageCores: cpuUsage.get(key(s)) ?? 0,
    memoryUsageBytes: memoryUsage.get(key(s)) ?? 0,
    share: fullCount > 0 ? Math.min(1, (counts.get(key(s)) ?? fullCount) / fullCount) : 1,
  }));
}

/** Nodes' CPU cores and memory bytes from kube-state-metrics. */
export async function readCapacity(reader: Reader): Promise<NodeCapacity[]> {
  const rows = await vector(
    reader,
    'max by (node, resource) (kube_node_status_capacity{resource=~"cpu|memory"})',
  );
  const nodes = new Map<string, NodeCapacity>();
  for (const s of rows) {
    const node = s.metric.node ?? '';
    const entry = nodes.get(node) ?? { node, cpuCores: 0, memoryBytes: 0 };
    if (s.metric.resource === 'cpu') entry.cpuCores = numberOf(s);
    else entry.memoryBytes = numberOf(s);
    nodes.set(node, entry);
  }
  return [...nodes.values()];
}

/** Persistent volumes with OpenCost's price, their size and their claim (kube-state-metrics). */
export async function readVolumes(reader: Reader, window: string): Promise<Volume[]> {
  const [prices, sizes, claims] = await Promise.all([
    vector(reader, `avg by (persistentvolume) (avg_over_time(pv_hourly_cost[${window}]))`),
    vector(reader, 'max by (persistentvolume) (kube_persistentvolume_capacity_bytes)'),
    vector(reader, 'max by (persistentvolume, claim_namespace, name) (kube_persistentvolume_claim_ref)'),
  ]);
  const size = new Map(sizes.map((s) => [s.metric.persistentvolume, numberOf(s)]));
  const claim = new Map(claims.map((s) => [s.metric.persistentvolume, s.metric]));
  return prices.map((s) => {
    const ref = claim.get(s.metric.persistentvolume);
    return {
      persistentVolume: s.metric.persistentvolume ?? '',
      hourlyCostPerGiB: numberOf(s),
      bytes: size.get(s.metric.persistentvolume) ?? 0,
      ...(ref?.claim_namespace && ref.name
        ? { claim: { namespace: ref.claim_namespace, name: ref.name } }
        : {}),
    };
  });
}
