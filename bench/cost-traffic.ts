import {
  clusterInventory,
  type GeneratedMetrics,
  generateMetrics,
  type MetricsStoreServer,
  startVictoriaMetrics,
} from '@binnacle/testkit';
import { KubeConfig } from '@kubernetes/client-node';
import { Pool } from 'undici';
import { createPods, loadCluster } from './load.ts';
import { machine } from './machine.ts';
import { latencyText, type RouteLatency, routeLatency } from './route-latency.ts';
import type { BenchResult } from './run.ts';
import { syncedAgent } from './synced-agent.ts';

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const millions = (count: number) => `${Math.round(count / 100_000) / 10} M`;
const trafficSources = ['istio', 'caretta', 'beyla'] as const;
/**
 * The series the agent's cost routes (features/cost/reads.ts, trends.ts) and its Istio, Caretta and Beyla flows
 * (features/traffic/metrics-flows.ts) read. The generator's others (network counters, requests and limits,
 * node-exporter, the spare OpenCost prices) would add two thirds to a load of minutes and nothing to what is
 * measured.
 */
const readSeries = [
  'node_cpu_hourly_cost',
  'node_ram_hourly_cost',
  'pv_hourly_cost',
  'container_cpu_allocation',
  'container_memory_allocation_bytes',
  'container_cpu_usage_seconds_total',
  'container_memory_working_set_bytes',
  'kube_node_status_capacity',
  'kube_persistentvolume_capacity_bytes',
  'kube_persistentvolume_claim_ref',
  'istio_requests_total',
  'istio_tcp_sent_bytes_total',
  'caretta_links_observed',
  'beyla_network_flow_bytes_total',
  'http_server_request_duration_seconds_count',
];
/** Each route: at most this many requests after the cold one, or this long, whichever ends first. */
const bounds = { maxRequests: 30, durationMs: 15_000 };

interface CostAnswer {
  available?: boolean;
  reason?: string;
}
const costAvailable = (body: unknown) => {
  const answer = body as CostAnswer;
  if (answer.available === false) throw new Error(`the cost route answered unavailable: ${answer.reason}`);
};
const pairsOf = (source: string) => (body: unknown) => {
  const answer = body as { available: boolean; source?: string; reason?: string; pairs?: unknown[] };
  if (!answer.available) throw new Error(`no flows: ${answer.reason}`);
  if (answer.source !== source) throw new Error(`flows came from ${answer.source}, not ${source}`);
  if (!answer.pairs?.length) throw new Error(`${source} gave no pairs`);
};

/** The store loaded with the history, and how long that took from a standing start. */
async function loadStore(metrics: GeneratedMetrics) {
  const started = performance.now();
  const store = await startVictoriaMetrics(metrics, { log });
  const seconds = Math.round(performance.now() - started) / 1000;
  return { store, seconds };
}

/** The cost routes, then each traffic source's flows in one namespace and over the whole cluster. */
async function measureRoutes(url: string, namespace: string, flowNamespace: string) {
  const pool = new Pool(url, { connections: 1 });
  try {
    const cost = {
      summary: await routeLatency(pool, '/api/cost/summary', bounds, costAvailable),
      workloads: await routeLatency(
        pool,
        `/api/cost/workloads?namespace=${namespace}`,
        bounds,
        costAvailable,
      ),
      trend: await routeLatency(pool, '/api/cost/trend?window=24h', bounds, costAvailable),
    };
    const traffic: Record<string, { namespace: RouteLatency; whole: RouteLatency }> = {};
    for (const source of trafficSources) {
      const chosen = await pool.request({
        method: 'POST',
        path: '/api/traffic/source',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ source }),
      });
      await chosen.body.dump();
      if (chosen.statusCode !== 200) throw new Error(`choosing ${source} answered ${chosen.statusCode}`);
      traffic[source] = {
        namespace: await routeLatency(
          pool,
          `/api/traffic/flows?namespace=${flowNamespace}`,
          bounds,
          pairsOf(source),
        ),
        whole: await routeLatency(pool, '/api/traffic/flows', bounds, pairsOf(source)),
      };
    }
    return { cost, traffic };
  } finally {
    await pool.close();
  }
}

/**
 * At 10 000 pods (`--pods=N`) with `--hours=24` of 30 s samples in VictoriaMetrics (for every pod and node, the
 * series the agent's cost and traffic routes read, as the testkit generates them): how long loading them takes,
 * then p50/p99/worst of the cost summary, a big namespace's workloads, the 24 h trend, and each traffic source's
 * flows in one namespace and over the whole cluster, the cold first request apart.
 */
export async function costTraffic(args: string[]): Promise<BenchResult> {
  const option = (name: string, fallback: number) =>
    Number(args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
  const pods = option('pods', 10_000);
  const hours = option('hours', 24);
  const stepSeconds = 30;
  const namespace = 'bench-load';
  return loadCluster(pods, async (state, client) => {
    log(`creating ${pods} pods`);
    await createPods(client, state.nodes, pods, namespace);
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(state.kubeconfigs.admin);
    // Every seeded workload calls the next one: as many pairs as the cluster has workloads.
    const metrics = generateMetrics(await clusterInventory(kubeConfig), {
      hours,
      stepSeconds,
      flows: 1000,
      names: readSeries,
    });
    log(`loading ${metrics.series.length} series, ${millions(metrics.samples)} samples into VictoriaMetrics`);
    let store: MetricsStoreServer | undefined;
    try {
      const loaded = await loadStore(metrics);
      store = loaded.store;
      log(`loaded in ${loaded.seconds} s`);
      const agent = await syncedAgent(state.kubeconfigs.admin, { metricsdbUrl: store.url });
      const flowNamespace = metrics.flows[0]?.source.namespace ?? namespace;
      const routes = await measureRoutes(agent.url, namespace, flowNamespace).finally(agent.close);
      const load = {
        store: 'victoriametrics',
        series: metrics.series.length,
        samples: metrics.samples,
        seconds: loaded.seconds,
        samplesPerSecond: Math.round(metrics.samples / loaded.seconds),
      };
      const { cost, traffic } = routes;
      const flowText = trafficSources
        .map(
          (s) =>
            `${s} ${flowNamespace} ${latencyText(traffic[s]?.namespace as RouteLatency)}, whole cluster ${latencyText(traffic[s]?.whole as RouteLatency)}`,
        )
        .join('; ');
      return {
        name: 'cost-traffic',
        summary:
          `${pods} pods, ${hours} h of ${stepSeconds} s samples: ${load.series} series (those the agent reads), ${millions(load.samples)} samples loaded into VictoriaMetrics in ${load.seconds} s (${millions(load.samplesPerSecond)}/s); ` +
          `/api/cost/summary ${latencyText(cost.summary)}; /api/cost/workloads?namespace=${namespace} ${latencyText(cost.workloads)}; ` +
          `/api/cost/trend (24h) ${latencyText(cost.trend)}; ${metrics.flows.length} flow pairs, /api/traffic/flows: ${flowText}`,
        data: { pods, hours, stepSeconds, load, flows: metrics.flows.length, ...routes, machine: machine() },
      };
    } finally {
      await store?.stop();
    }
  });
}
