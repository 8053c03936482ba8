import type { Inventory } from './inventory.ts';
import { type ContainerTruth, type NodePrice, nameHash, round, type Series, seeded } from './model.ts';
import { memoryAt } from './usage-series.ts';

const gib = 2 ** 30;
const exporter = { job: 'opencost', instance: 'opencost.opencost:9003' };

/** Node prices in the range of on-demand cloud VMs, seeded per node. */
export function nodePrices(seed: number, inventory: Inventory): NodePrice[] {
  return inventory.nodes.map((node) => {
    const h = nameHash(node.name);
    const cpuHourlyCost = round(0.02 + 0.02 * seeded(seed, h, 21), 6);
    const ramHourlyCostPerGiB = round(0.002 + 0.004 * seeded(seed, h, 22), 6);
    return {
      node: node.name,
      cpuCores: node.cpuCores,
      memoryBytes: node.memoryBytes,
      cpuHourlyCost,
      ramHourlyCostPerGiB,
      totalHourlyCost: round(
        cpuHourlyCost * node.cpuCores + (ramHourlyCostPerGiB * node.memoryBytes) / gib,
        6,
      ),
    };
  });
}

export const pvHourlyCostPerGiB = 0.00005479;
export const clusterManagementHourlyCost = 0.1;

/**
 * OpenCost's exporter metrics with its metric names and labels (opencost.io/docs/integrations/metrics): node
 * prices, volume prices, the management fee, and per-container allocation, which OpenCost defines as the larger
 * of request and usage.
 */
export function costSeries(
  seed: number,
  inventory: Inventory,
  prices: NodePrice[],
  truths: ContainerTruth[],
): Series[] {
  const series: Series[] = [];
  for (const price of prices) {
    const node = inventory.nodes.find((n) => n.name === price.node);
    const labels = {
      ...exporter,
      node: price.node,
      instance_type: node?.instanceType ?? '',
      region: node?.region ?? '',
      provider_id: `kwok://${price.node}`,
      arch: 'amd64',
    };
    series.push({ name: 'node_cpu_hourly_cost', labels, value: () => price.cpuHourlyCost });
    series.push({ name: 'node_ram_hourly_cost', labels, value: () => price.ramHourlyCostPerGiB });
    series.push({ name: 'node_gpu_hourly_cost', labels, value: () => 0 });
    series.push({ name: 'node_total_hourly_cost', labels, value: () => price.totalHourlyCost });
    series.push({ name: 'kubecost_node_is_spot', labels, value: () => 0 });
  }
  for (const volume of inventory.volumes) {
    series.push({
      name: 'pv_hourly_cost',
      labels: {
        ...exporter,
        persistentvolume: volume.name,
        volumename: volume.name,
        provider_id: volume.name,
      },
      value: () => pvHourlyCostPerGiB,
    });
  }
  series.push({
    name: 'kubecost_cluster_management_cost',
    labels: { ...exporter, provisioner_name: 'kwok' },
    value: () => clusterManagementHourlyCost,
  });
  for (const t of truths) {
    const labels = { ...exporter, namespace: t.namespace, pod: t.pod, container: t.container, node: t.node };
    series.push({
      name: 'container_cpu_allocation',
      labels,
      value: () => Math.max(t.requests.cpu ?? 0, t.cpuCores),
    });
    series.push({
      name: 'container_memory_allocation_bytes',
      labels,
      value: (i) => Math.max(t.requests.memory ?? 0, memoryAt(seed, t, i)),
    });
  }
  return series;
}
