import { quote } from '../../scope/metricsdb/client.ts';

/** PromQL over the series cAdvisor, kube-state-metrics and node-exporter expose, with their usual labels. */
export type Category = 'cpu' | 'memory' | 'network_rx' | 'network_tx';
export const categories: Category[] = ['cpu', 'memory', 'network_rx', 'network_tx'];
export const units: Record<Category, string> = {
  cpu: 'cores',
  memory: 'bytes',
  network_rx: 'bytes/s',
  network_tx: 'bytes/s',
};

/** Containers only: cAdvisor also reports each pod's cgroup (container="") and its pause container. */
const containers = 'container!="",container!="POD"';

export interface NamedQuery {
  name: string;
  query: string;
}

const resourceSums = (selector: string, resource: 'cpu' | 'memory', by = '') => [
  {
    name: 'requests',
    query: `sum${by}(kube_pod_container_resource_requests{${selector},resource="${resource}"})`,
  },
  {
    name: 'limits',
    query: `sum${by}(kube_pod_container_resource_limits{${selector},resource="${resource}"})`,
  },
];

/** The series a chart of pods shows: usage per pod, and for CPU and memory their requests and limits summed. */
export function podQueries(selector: string, category: Category, rateWindow: string): NamedQuery[] {
  switch (category) {
    case 'cpu':
      return [
        {
          name: 'usage',
          query: `sum by (pod) (rate(container_cpu_usage_seconds_total{${selector},${containers}}[${rateWindow}]))`,
        },
        ...resourceSums(selector, 'cpu'),
      ];
    case 'memory':
      return [
        {
          name: 'usage',
          query: `sum by (pod) (container_memory_working_set_bytes{${selector},${containers}})`,
        },
        ...resourceSums(selector, 'memory'),
      ];
    default: {
      const metric = category === 'network_rx' ? 'receive' : 'transmit';
      return [
        {
          name: 'usage',
          query: `sum by (pod) (rate(container_network_${metric}_bytes_total{${selector}}[${rateWindow}]))`,
        },
      ];
    }
  }
}

/** A namespace or the whole cluster: usage summed, beside requests, limits and (cluster) allocatable. */
export function totalQueries(
  selector: string,
  category: Category,
  rateWindow: string,
  cluster: boolean,
): NamedQuery[] {
  const where = selector ? `${selector},` : '';
  const allocatable = (resource: string) =>
    cluster
      ? [{ name: 'allocatable', query: `sum(kube_node_status_allocatable{resource="${resource}"})` }]
      : [];
  switch (category) {
    case 'cpu':
      return [
        {
          name: 'usage',
          query: `sum(rate(container_cpu_usage_seconds_total{${where}${containers}}[${rateWindow}]))`,
        },
        ...(selector ? resourceSums(selector, 'cpu') : resourceSums('resource!=""', 'cpu')),
        ...allocatable('cpu'),
      ];
    case 'memory':
      return [
        { name: 'usage', query: `sum(container_memory_working_set_bytes{${where}${containers}})` },
        ...(selector ? resourceSums(selector, 'memory') : resourceSums('resource!=""', 'memory')),
        ...allocatable('memory'),
      ];
    default: {
      const metric = category === 'network_rx' ? 'receive' : 'transmit';
      const scope = selector ? `{${selector}}` : '';
      return [
        { name: 'usage', query: `sum(rate(container_network_${metric}_bytes_total${scope}[${rateWindow}]))` },
      ];
    }
  }
}

/** A node: its root cgroup (id="/") as cAdvisor reports it, against its capacity and allocatable. */
export function nodeQueries(node: string, category: Category, rateWindow: string): NamedQuery[] {
  const root = `id="/",node=${quote(node)}`;
  const state = (resource: string) => [
    { name: 'capacity', query: `sum(kube_node_status_capacity{node=${quote(node)},resource="${resource}"})` },
    {
      name: 'allocatable',
      query: `sum(kube_node_status_allocatable{node=${quote(node)},resource="${resource}"})`,
    },
  ];
  switch (category) {
    case 'cpu':
      return [
        { name: 'usage', query: `sum(rate(container_cpu_usage_seconds_total{${root}}[${rateWindow}]))` },
        ...state('cpu'),
      ];
    case 'memory':
      return [
        { name: 'usage', query: `sum(container_memory_working_set_bytes{${root}})` },
        ...state('memory'),
      ];
    default: {
      const metric = category === 'network_rx' ? 'receive' : 'transmit';
      return [
        {
          name: 'usage',
          // Its pods' traffic: the root cgroup's interfaces also carry the node's own.
          query: `sum(rate(container_network_${metric}_bytes_total{node=${quote(node)},pod!=""}[${rateWindow}]))`,
        },
      ];
    }
  }
}

/** Per pod and container over a window: the 95th percentile and the peak of CPU, the peak of working-set memory. */
export function usageQueries(selector: string, window: string) {
  const cpu = `rate(container_cpu_usage_seconds_total{${selector},${containers}}[5m])[${window}:5m]`;
  const by = 'by (namespace, pod, container)';
  return {
    cpuP95: `max ${by} (quantile_over_time(0.95, ${cpu}))`,
    cpuMax: `max ${by} (max_over_time(${cpu}))`,
    memoryMax: `max ${by} (max_over_time(container_memory_working_set_bytes{${selector},${containers}}[${window}]))`,
  };
}
