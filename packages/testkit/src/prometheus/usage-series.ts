import type { Inventory, InventoryPod } from './inventory.ts';
import { type ContainerTruth, nameHash, type PodNetworkTruth, round, type Series, seeded } from './model.ts';

const mib = 2 ** 20;
/** The share of a node's CPU and memory its system (kubelet, runtime) uses on top of its pods. */
const system = { cpuCores: 0.1, memoryBytes: 512 * mib };
/** Working-set memory reaches its peak once every this many samples. */
export const memoryPeakEvery = 90;

/**
 * Usage per container. With a request, usage stays well below it (10–40 % of the CPU request, 30–60 % of the
 * memory request), so every seeded workload with requests is over-provisioned; without one it is free.
 */
export function containerTruths(seed: number, inventory: Inventory): ContainerTruth[] {
  return inventory.pods.flatMap((pod) =>
    pod.containers.map((c) => {
      const h = nameHash(`${pod.namespace}/${pod.name}/${c.name}`);
      const cpuCores = c.requests.cpu
        ? round(c.requests.cpu * (0.1 + 0.3 * seeded(seed, h, 1)), 4)
        : round(0.01 + 0.29 * seeded(seed, h, 1), 4);
      const peak = c.requests.memory
        ? Math.floor((c.requests.memory * (0.3 + 0.3 * seeded(seed, h, 3))) / mib) * mib
        : (48 + Math.floor(256 * seeded(seed, h, 3))) * mib;
      const base = Math.floor((peak * (0.4 + 0.3 * seeded(seed, h, 2))) / mib) * mib;
      return {
        namespace: pod.namespace,
        pod: pod.name,
        container: c.name,
        node: pod.node,
        owner: pod.owner,
        cpuCores,
        memoryBaseBytes: base,
        memoryPeakBytes: peak,
        requests: c.requests,
        limits: c.limits,
      };
    }),
  );
}

export function networkTruths(seed: number, inventory: Inventory): PodNetworkTruth[] {
  return inventory.pods.map((pod) => {
    const h = nameHash(`${pod.namespace}/${pod.name}`);
    return {
      namespace: pod.namespace,
      pod: pod.name,
      receiveBytesPerSecond: 1000 + Math.floor(49_000 * seeded(seed, h, 11)),
      transmitBytesPerSecond: 1000 + Math.floor(49_000 * seeded(seed, h, 12)),
    };
  });
}

/** Each container's name hash: memoryAt runs for every sample of five series, a day of them is millions of calls. */
const hashes = new WeakMap<ContainerTruth, number>();
const containerHash = (truth: ContainerTruth) => {
  let h = hashes.get(truth);
  if (h === undefined) {
    h = nameHash(`${truth.namespace}/${truth.pod}/${truth.container}`);
    hashes.set(truth, h);
  }
  return h;
};

/** Working-set bytes of a container at sample `index`: its peak every `memoryPeakEvery` samples, else between. */
export function memoryAt(seed: number, truth: ContainerTruth, index: number): number {
  const h = containerHash(truth);
  if ((index + h) % memoryPeakEvery === 0) return truth.memoryPeakBytes;
  const span = truth.memoryPeakBytes - truth.memoryBaseBytes;
  return truth.memoryBaseBytes + Math.floor(span * 0.9 * seeded(seed, h, index + 100));
}

const cadvisor = (node: string) => ({
  job: 'kubelet',
  metrics_path: '/metrics/cadvisor',
  instance: node,
  node,
});
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/**
 * cAdvisor's series as the kubelet exposes them: per container, per pod (`container=""`), and the node's root
 * cgroup (`id="/"`), plus its pods' network counters.
 */
export function cadvisorSeries(
  seed: number,
  step: number,
  truths: ContainerTruth[],
  network: PodNetworkTruth[],
): Series[] {
  const series: Series[] = [];
  const pods = Map.groupBy(truths, (t) => `${t.namespace}/${t.pod}`);
  for (const [key, containers] of pods) {
    const [namespace = '', pod = ''] = key.split('/');
    const base = { ...cadvisor(containers[0]?.node ?? ''), namespace, pod };
    const podId = `/kubepods.slice/${namespace}_${pod}`;
    for (const t of containers) {
      const labels = {
        ...base,
        container: t.container,
        id: `${podId}/${t.container}`,
        image: `${t.container}:1`,
      };
      series.push({
        name: 'container_cpu_usage_seconds_total',
        labels,
        value: (i) => round(t.cpuCores * i * step, 6),
      });
      series.push({ name: 'container_memory_working_set_bytes', labels, value: (i) => memoryAt(seed, t, i) });
    }
    const podLabels = { ...base, container: '', id: podId };
    const cpu = sum(containers.map((t) => t.cpuCores));
    series.push({
      name: 'container_cpu_usage_seconds_total',
      labels: podLabels,
      value: (i) => round(cpu * i * step, 6),
    });
    series.push({
      name: 'container_memory_working_set_bytes',
      labels: podLabels,
      value: (i) => sum(containers.map((t) => memoryAt(seed, t, i))),
    });
    const net = network.find((n) => n.namespace === namespace && n.pod === pod);
    if (!net) continue;
    const netLabels = { ...podLabels, interface: 'eth0' };
    series.push({
      name: 'container_network_receive_bytes_total',
      labels: netLabels,
      value: (i) => net.receiveBytesPerSecond * i * step,
    });
    series.push({
      name: 'container_network_transmit_bytes_total',
      labels: netLabels,
      value: (i) => net.transmitBytesPerSecond * i * step,
    });
  }
  for (const [node, onNode] of Map.groupBy(truths, (t) => t.node)) {
    const labels = { ...cadvisor(node), id: '/' };
    const cpu = system.cpuCores + sum(onNode.map((t) => t.cpuCores));
    series.push({
      name: 'container_cpu_usage_seconds_total',
      labels,
      value: (i) => round(cpu * i * step, 6),
    });
    series.push({
      name: 'container_memory_working_set_bytes',
      labels,
      value: (i) => system.memoryBytes + sum(onNode.map((t) => memoryAt(seed, t, i))),
    });
  }
  return series;
}

const ksm = { job: 'kube-state-metrics', instance: 'kube-state-metrics:8080' };
const constant = (value: number) => () => value;

function podStateSeries(pod: InventoryPod): Series[] {
  const series: Series[] = [];
  const base = { ...ksm, namespace: pod.namespace, pod: pod.name };
  if (pod.controller)
    series.push({
      name: 'kube_pod_owner',
      labels: {
        ...base,
        owner_kind: pod.controller.kind,
        owner_name: pod.controller.name,
        owner_is_controller: 'true',
      },
      value: constant(1),
    });
  for (const c of pod.containers) {
    const labels = { ...base, container: c.name, node: pod.node };
    for (const [name, values] of [
      ['kube_pod_container_resource_requests', c.requests],
      ['kube_pod_container_resource_limits', c.limits],
    ] as const) {
      if (values.cpu !== undefined)
        series.push({
          name,
          labels: { ...labels, resource: 'cpu', unit: 'core' },
          value: constant(values.cpu),
        });
      if (values.memory !== undefined)
        series.push({
          name,
          labels: { ...labels, resource: 'memory', unit: 'byte' },
          value: constant(values.memory),
        });
    }
  }
  return series;
}

/** kube-state-metrics' pod, node and volume series, and node-exporter's memory gauges. */
export function stateSeries(seed: number, inventory: Inventory, truths: ContainerTruth[]): Series[] {
  const series = inventory.pods.flatMap(podStateSeries);
  for (const node of inventory.nodes) {
    const capacity = { cpu: node.cpuCores, memory: node.memoryBytes };
    const allocatable = {
      cpu: node.cpuCores - system.cpuCores,
      memory: node.memoryBytes - system.memoryBytes,
    };
    for (const [name, values] of [
      ['kube_node_status_capacity', capacity],
      ['kube_node_status_allocatable', allocatable],
    ] as const) {
      series.push({
        name,
        labels: { ...ksm, node: node.name, resource: 'cpu', unit: 'core' },
        value: constant(values.cpu),
      });
      series.push({
        name,
        labels: { ...ksm, node: node.name, resource: 'memory', unit: 'byte' },
        value: constant(values.memory),
      });
    }
    const exporter = { job: 'node-exporter', instance: node.name, node: node.name };
    const onNode = truths.filter((t) => t.node === node.name);
    series.push({ name: 'node_memory_MemTotal_bytes', labels: exporter, value: constant(node.memoryBytes) });
    series.push({
      name: 'node_memory_MemAvailable_bytes',
      labels: exporter,
      value: (i) => node.memoryBytes - system.memoryBytes - sum(onNode.map((t) => memoryAt(seed, t, i))),
    });
  }
  for (const volume of inventory.volumes) {
    series.push({
      name: 'kube_persistentvolume_capacity_bytes',
      labels: { ...ksm, persistentvolume: volume.name },
      value: constant(volume.bytes),
    });
    if (volume.claim)
      series.push({
        name: 'kube_persistentvolume_claim_ref',
        labels: {
          ...ksm,
          persistentvolume: volume.name,
          name: volume.claim.name,
          claim_namespace: volume.claim.namespace,
        },
        value: constant(1),
      });
  }
  return series;
}
