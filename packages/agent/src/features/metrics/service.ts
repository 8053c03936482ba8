import { type KubeObject, mapConcurrently } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import { visibleNamespaces } from '../../http/caller-view.ts';
import type { Impersonation } from '../../kube/client.ts';
import { type Availability, metricsPath, readSample, readSamples } from '../../scope/metrics/api.ts';
import type { HistoryPoint } from '../../scope/metrics/history.ts';
import { type Sample, specTotal } from '../../scope/metrics/usage.ts';
import type { MetricsContext } from './module.ts';

type Unavailable = Exclude<Availability, { available: true }>;
type Live<T> = (T & { available: true }) | Unavailable;

export type TopSort = 'cpu' | 'memory' | 'name';

interface PodSpec {
  nodeName?: string;
  containers?: { resources?: { requests?: Record<string, string>; limits?: Record<string, string> } }[];
}

const listsAtOnce = 8;

/**
 * A live read of metrics.k8s.io; when the API is not served (no APIService, or the aggregator cannot reach
 * metrics-server) the answer says so with the diagnosis instead of failing.
 */
async function live<T extends object>(ctx: MetricsContext, read: () => Promise<T>): Promise<Live<T>> {
  const availability = await ctx.metrics.availability.check();
  if (!availability.available) return availability;
  try {
    return { available: true, ...(await read()) };
  } catch (error) {
    // A group that went away answers 404, one the aggregator cannot reach 503: ask the APIService again.
    const maybeGone = error instanceof AppError && [404, 500, 502, 503].includes(error.status);
    if (maybeGone) {
      const fresh = await ctx.metrics.availability.check({ fresh: true });
      if (!fresh.available) return fresh;
    }
    throw error;
  }
}

const describe = (kind: 'pod' | 'node', namespace: string | undefined, name: string) =>
  namespace ? `${kind} ${namespace}/${name}` : `${kind} ${name}`;

function exists(ctx: MetricsContext, kind: 'pod' | 'node', namespace: string | undefined, name: string) {
  return Boolean(
    ctx.cluster.cache.get(ctx.cluster.resolve(kind === 'pod' ? 'pods' : 'nodes'), name, namespace),
  );
}

/** A 404 that tells a pod without metrics yet from one that does not exist. */
function noSample(ctx: MetricsContext, kind: 'pod' | 'node', namespace: string | undefined, name: string) {
  const what = describe(kind, namespace, name);
  if (!exists(ctx, kind, namespace, name)) return new AppError('not_found', `${what} not found`);
  return new AppError(
    'not_found',
    `metrics-server has no sample of ${what} yet: it scrapes every 15-60 s, and only running pods have usage`,
  );
}

async function readOne(
  ctx: MetricsContext,
  kind: 'pod' | 'node',
  namespace: string | undefined,
  name: string,
  as?: Impersonation,
): Promise<Sample> {
  const path = kind === 'pod' ? metricsPath('pods', namespace, name) : metricsPath('nodes', undefined, name);
  try {
    return await readSample(ctx.cluster.client, path, as);
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') throw noSample(ctx, kind, namespace, name);
    throw error;
  }
}

export const podMetrics = (ctx: MetricsContext, namespace: string, name: string, as?: Impersonation) =>
  live(ctx, () => readOne(ctx, 'pod', namespace, name, as));

export const nodeMetrics = (ctx: MetricsContext, name: string, as?: Impersonation) =>
  live(ctx, () => readOne(ctx, 'node', undefined, name, as));

type Ranked = { cpuMillicores: number; memoryBytes: number; name: string; namespace?: string };

/** Highest CPU or memory first (by namespace and name on a tie, or for `name`). */
export const byUsage = (sort: TopSort) => (a: Ranked, b: Ranked) => {
  if (sort === 'cpu' && a.cpuMillicores !== b.cpuMillicores) return b.cpuMillicores - a.cpuMillicores;
  if (sort === 'memory' && a.memoryBytes !== b.memoryBytes) return b.memoryBytes - a.memoryBytes;
  return (a.namespace ?? '').localeCompare(b.namespace ?? '') || a.name.localeCompare(b.name);
};

/** Pod metrics in the namespaces asked for, or everywhere the caller may list them. */
async function podSamples(ctx: MetricsContext, as: Impersonation | undefined, namespace?: string) {
  const watched = ctx.cluster.cache.namespaces;
  const requested = namespace ? [namespace] : watched ? [...watched] : undefined;
  const resource = { group: 'metrics.k8s.io', resource: 'pods' };
  const namespaces = await visibleNamespaces(ctx, as, resource, requested);
  const client = ctx.cluster.client;
  if (!namespaces) return readSamples(client, metricsPath('pods'), as);
  const lists = await mapConcurrently(namespaces, listsAtOnce, (ns) =>
    readSamples(client, metricsPath('pods', ns), as),
  );
  return lists.flat();
}

/** Every pod's usage beside its requests and limits (summed over its containers) and its node. */
export function topPods(
  ctx: MetricsContext,
  as: Impersonation | undefined,
  query: { namespace?: string; sort: TopSort; limit?: number },
) {
  return live(ctx, async () => {
    const pods = ctx.cluster.resolve('pods');
    const samples = await podSamples(ctx, as, query.namespace);
    const rows = samples.sort(byUsage(query.sort)).map(({ containers: _, ...sample }) => {
      const spec = ctx.cluster.cache.get(pods, sample.name, sample.namespace)?.spec as PodSpec | undefined;
      const containers = spec?.containers ?? [];
      return {
        ...sample,
        namespace: sample.namespace ?? '',
        node: spec?.nodeName,
        cpuRequestMillicores: specTotal(containers, 'requests', 'cpu'),
        cpuLimitMillicores: specTotal(containers, 'limits', 'cpu'),
        memoryRequestBytes: specTotal(containers, 'requests', 'memory'),
        memoryLimitBytes: specTotal(containers, 'limits', 'memory'),
      };
    });
    return { total: rows.length, pods: rows.slice(0, query.limit) };
  });
}

const percent = (used: number, of: number | undefined) =>
  of ? Math.round((used / of) * 1000) / 10 : undefined;

const finished = (pod: KubeObject) => ['Succeeded', 'Failed'].includes(String(pod.status?.phase));

/** Every node's usage against its allocatable CPU and memory, with the pods scheduled on it. */
export function topNodes(
  ctx: MetricsContext,
  as: Impersonation | undefined,
  query: { sort: TopSort; limit?: number },
) {
  return live(ctx, async () => {
    const samples = await readSamples(ctx.cluster.client, metricsPath('nodes'), as);
    const podsOnNode = new Map<string, number>();
    for (const pod of ctx.cluster.cache.list(ctx.cluster.resolve('pods'))) {
      const node = (pod.spec as PodSpec | undefined)?.nodeName;
      if (node && !finished(pod)) podsOnNode.set(node, (podsOnNode.get(node) ?? 0) + 1);
    }
    const nodes = ctx.cluster.resolve('nodes');
    const rows = samples.sort(byUsage(query.sort)).map((sample) => {
      const allocatable = (ctx.cluster.cache.get(nodes, sample.name)?.status?.allocatable ?? {}) as Record<
        string,
        string
      >;
      const resources = [{ resources: { requests: allocatable } }];
      const cpuAllocatableMillicores = specTotal(resources, 'requests', 'cpu');
      const memoryAllocatableBytes = specTotal(resources, 'requests', 'memory');
      return {
        ...sample,
        pods: podsOnNode.get(sample.name) ?? 0,
        cpuAllocatableMillicores,
        memoryAllocatableBytes,
        cpuPercent: percent(sample.cpuMillicores, cpuAllocatableMillicores),
        memoryPercent: percent(sample.memoryBytes, memoryAllocatableBytes),
      };
    });
    return { total: rows.length, nodes: rows.slice(0, query.limit) };
  });
}

/** The history the agent keeps of a pod or node, with how it is collected and whether collection works now. */
export async function history(
  ctx: MetricsContext,
  kind: 'pod' | 'node',
  namespace: string | undefined,
  name: string,
): Promise<{
  available: boolean;
  diagnosis?: string;
  pollSeconds: number;
  capacity: number;
  lastPoll?: { at: string; error?: string };
  samples: HistoryPoint[];
}> {
  const { history: store, intervalMs, last } = ctx.metrics.poller;
  const samples = kind === 'pod' ? store.pod(namespace ?? '', name) : store.node(name);
  if (!samples && !exists(ctx, kind, namespace, name)) {
    throw new AppError('not_found', `${describe(kind, namespace, name)} not found`);
  }
  const availability = await ctx.metrics.availability.check();
  const error = kind === 'pod' ? last?.podsError : last?.nodesError;
  return {
    available: availability.available,
    ...(availability.available ? {} : { diagnosis: availability.diagnosis }),
    pollSeconds: intervalMs / 1000,
    capacity: store.capacity,
    ...(last ? { lastPoll: { at: last.at, ...(error ? { error } : {}) } } : {}),
    samples: samples ?? [],
  };
}
