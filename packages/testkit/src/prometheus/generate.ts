import { clusterManagementHourlyCost, costSeries, nodePrices, pvHourlyCostPerGiB } from './cost-series.ts';
import type { Inventory } from './inventory.ts';
import type { GeneratedMetrics } from './model.ts';
import { flowTruths, trafficSeries } from './traffic-series.ts';
import { cadvisorSeries, containerTruths, networkTruths, stateSeries } from './usage-series.ts';

export interface GenerateOptions {
  /** The same seed and inventory give the same series (default 21). */
  seed?: number;
  /** Hours of history before now (default 6). */
  hours?: number;
  /** Seconds between samples (default 60). */
  stepSeconds?: number;
  /** Minutes of samples after now, so instant queries keep finding fresh samples while tests run (default 15). */
  aheadMinutes?: number;
  /** Unix seconds taken as now (default: the clock). */
  now?: number;
  /** Talking workload pairs at most (default 8): each seeded workload calls the next one. */
  flows?: number;
  /** Only the series of these metric names (default: all), to load what a reader reads and no more. */
  names?: readonly string[];
}

/**
 * Series for the cluster's real pods and nodes with the names and labels of cAdvisor, kube-state-metrics,
 * node-exporter, OpenCost's exporter, Istio, Caretta and Beyla, and the truths they were made from.
 */
export function generateMetrics(inventory: Inventory, options: GenerateOptions = {}): GeneratedMetrics {
  const seed = options.seed ?? 21;
  const step = options.stepSeconds ?? 60;
  const now = options.now ?? Date.now() / 1000;
  const end = Math.floor((now + (options.aheadMinutes ?? 15) * 60) / step) * step;
  const start = end - Math.round((options.hours ?? 6) * 3600 + (options.aheadMinutes ?? 15) * 60);
  const containers = containerTruths(seed, inventory);
  const network = networkTruths(seed, inventory);
  const nodes = nodePrices(seed, inventory);
  const flows = flowTruths(seed, inventory, options.flows);
  const names = options.names && new Set(options.names);
  const series = [
    ...cadvisorSeries(seed, step, containers, network),
    ...stateSeries(seed, inventory, containers),
    ...costSeries(seed, inventory, nodes, containers),
    ...trafficSeries(flows, step),
  ].filter((s) => !names || names.has(s.name));
  const points = Math.floor((end - start) / step) + 1;
  return {
    seed,
    start,
    end,
    stepSeconds: step,
    inventory,
    containers,
    network,
    nodes,
    flows,
    pvHourlyCostPerGiB,
    clusterManagementHourlyCost,
    series,
    samples: series.length * points,
  };
}
