import { requireAccess } from '../../http/caller.ts';
import type { Impersonation } from '../../kube/client.ts';
import { withStore } from '../../scope/metricsdb/answers.ts';
import type { Connection, MetricsStores } from '../../scope/metricsdb/stores.ts';
import { podWorkload } from '../../scope/metricsdb/workload-pods.ts';
import { idleCost, money, nodeCosts, type PricedPod, pricePods, rollup, total, volumeCost } from './math.ts';
import type { CostContext } from './module.ts';
import { MissingSeries, type Reader, readCapacity, readPods, readPrices, readVolumes } from './reads.ts';
import {
  aboutApplication,
  aboutWorkload,
  type NamespaceScope,
  namespaceScope,
  type ResolvedWorkload,
  workloadSelectors,
} from './scope.ts';
import { costWindow } from './window.ts';

/** OpenCost's default; its exporter does not say which currency its prices are in. */
const currency = 'USD';

/**
 * Reads through the metrics store's `withStore` (no store, or one that stops answering: `available: false`),
 * and turns missing OpenCost series into the same ordinary answer, naming them.
 */
export async function costAnswer<T extends object>(
  stores: MetricsStores,
  read: (reader: Reader) => Promise<T>,
) {
  try {
    return await withStore(stores, (connection: Connection) =>
      read({ connection, timeoutMs: stores.timeoutMs, at: Date.now() }),
    );
  } catch (error) {
    if (!(error instanceof MissingSeries)) throw error;
    return { available: false as const, reason: error.message, missing: error.metrics };
  }
}

async function pricedPods(reader: Reader, selectors: string[], window: string) {
  const [prices, pods] = await Promise.all([readPrices(reader, window), readPods(reader, selectors, window)]);
  return { prices, pods: pricePods(pods, prices) };
}

/** Claimed volumes per namespace the scope covers; unclaimed ones count only towards a whole-cluster total. */
async function storage(reader: Reader, scope: NamespaceScope, window: string) {
  const volumes = await readVolumes(reader, window);
  const byNamespace = new Map<string, number>();
  let unclaimed = 0;
  for (const volume of volumes) {
    const namespace = volume.claim?.namespace;
    if (!namespace) unclaimed += volumeCost(volume);
    else if (scope.whole || scope.namespaces?.includes(namespace))
      byNamespace.set(namespace, (byNamespace.get(namespace) ?? 0) + volumeCost(volume));
  }
  return { byNamespace, unclaimed: scope.whole ? unclaimed : 0 };
}

export async function costSummary(
  ctx: CostContext,
  stores: MetricsStores,
  caller: Impersonation | undefined,
  query: { window?: string },
) {
  const window = costWindow(query.window);
  const scope = await namespaceScope(ctx, caller, undefined);
  return costAnswer(stores, async (reader) => {
    const [{ prices, pods }, volumes, capacity] = await Promise.all([
      pricedPods(reader, scope.selectors, window.promql),
      storage(reader, scope, window.promql),
      scope.whole ? readCapacity(reader) : Promise.resolve([]),
    ]);
    const storageTotal = [...volumes.byNamespace.values()].reduce((a, b) => a + b, volumes.unclaimed);
    const totals = total(pods, storageTotal);
    const rows = rollup(
      pods,
      (pod) => pod.namespace,
      (ns) => volumes.byNamespace.get(ns) ?? 0,
    );
    // A namespace with volumes but no pod left still owes its storage.
    for (const [ns, cost] of volumes.byNamespace)
      if (!rows.some((row) => row.key === ns)) rows.push({ key: ns, pods: 0, figures: total([], cost) });
    const nodesHourly = nodeCosts(prices, capacity).reduce((sum, node) => sum + node.hourlyCost, 0);
    return {
      currency,
      window: window.text,
      ...totals,
      windowCost: money(totals.hourlyCost * window.hours),
      ...(scope.whole && capacity.length > 0
        ? {
            nodesHourlyCost: money(nodesHourly),
            idleCost: idleCost(nodesHourly, totals.cpuCost + totals.memoryCost),
          }
        : {}),
      namespaces: rows
        .sort((a, b) => b.figures.hourlyCost - a.figures.hourlyCost || a.key.localeCompare(b.key))
        .map((row) => ({ name: row.key, pods: row.pods, ...row.figures })),
    };
  });
}

/**
 * The workload each pod belongs to as people name it (a Deployment rather than its ReplicaSet), through the
 * agent's cache; a pod the cache no longer holds is listed under its own name.
 */
function workloadOf(ctx: CostContext, pod: PricedPod) {
  const object = ctx.cluster.cache.get(ctx.cluster.resolve('pods'), pod.pod, pod.namespace);
  const owner = object ? podWorkload(ctx, object) : { kind: 'Pod', name: pod.pod };
  return `${pod.namespace}/${owner.kind}/${owner.name}`;
}

export async function costWorkloads(
  ctx: CostContext,
  stores: MetricsStores,
  caller: Impersonation | undefined,
  query: { window?: string; namespace?: string; limit?: number },
) {
  const window = costWindow(query.window);
  const scope = await namespaceScope(ctx, caller, query.namespace);
  return costAnswer(stores, async (reader) => {
    const { pods } = await pricedPods(reader, scope.selectors, window.promql);
    const rows = rollup(pods, (pod) => workloadOf(ctx, pod));
    return {
      currency,
      window: window.text,
      total: rows.length,
      workloads: rows.slice(0, query.limit ?? 100).map((row) => {
        const [namespace = '', kind = '', name = ''] = row.key.split('/');
        return { kind, namespace, name, pods: row.pods, ...row.figures };
      }),
    };
  });
}

export async function costNodes(
  ctx: CostContext,
  stores: MetricsStores,
  caller: Impersonation | undefined,
  query: { window?: string },
) {
  const window = costWindow(query.window);
  await requireAccess(ctx, caller, { verb: 'list', group: '', resource: 'nodes' });
  return costAnswer(stores, async (reader) => {
    const [prices, capacity] = await Promise.all([readPrices(reader, window.promql), readCapacity(reader)]);
    if (capacity.length === 0) throw new MissingSeries(['kube_node_status_capacity']);
    const nodes = nodeCosts(prices, capacity).sort(
      (a, b) => b.hourlyCost - a.hourlyCost || a.name.localeCompare(b.name),
    );
    return {
      currency,
      window: window.text,
      hourlyCost: money(nodes.reduce((s, n) => s + n.hourlyCost, 0)),
      nodes,
    };
  });
}

/** Prices a set of workloads; a pod matched by two of them (a Deployment and its ReplicaSet) counts once. */
async function priceWorkloads(reader: Reader, workloads: ResolvedWorkload[], window: string) {
  const { pods } = await pricedPods(reader, workloadSelectors(workloads), window);
  const owner = (pod: PricedPod) =>
    workloads.findIndex((w) => w.namespace === pod.namespace && w.matches.test(pod.pod));
  const rows = workloads.map((w, i) => {
    const own = pods.filter((pod) => owner(pod) === i);
    return {
      kind: w.kind,
      namespace: w.namespace,
      name: w.name,
      pods: own.map((pod) => ({ name: pod.pod, node: pod.node, ...total([pod]) })),
      ...total(own),
    };
  });
  return { rows, totals: total(pods.filter((pod) => owner(pod) >= 0)) };
}

export const costWorkload = aboutWorkload((stores, workload, window) =>
  costAnswer(stores, async (reader) => {
    const { rows } = await priceWorkloads(reader, [workload], window.promql);
    // One workload in, one row out.
    return { currency, window: window.text, ...(rows[0] as (typeof rows)[number]) };
  }),
);

export const costApplication = aboutApplication((stores, workloads, window) =>
  costAnswer(stores, async (reader) => {
    const { rows, totals } = await priceWorkloads(reader, workloads, window.promql);
    return {
      currency,
      window: window.text,
      ...totals,
      windowCost: money(totals.hourlyCost * window.hours),
      workloads: rows,
    };
  }),
);
