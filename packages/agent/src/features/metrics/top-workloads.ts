import type { KubeObject } from '@binnacle/common';
import type { Impersonation } from '../../kube/client.ts';
import type { MetricsContext } from './module.ts';
import { byUsage, type TopSort, topPods } from './service.ts';

type PodRow = Extract<Awaited<ReturnType<typeof topPods>>, { available: true }>['pods'][number];

export interface WorkloadUsage {
  kind: string;
  namespace: string;
  name: string;
  /** Pods with metrics that the workload owns. */
  pods: number;
  cpuMillicores: number;
  memoryBytes: number;
  cpuRequestMillicores?: number;
  cpuLimitMillicores?: number;
  memoryRequestBytes?: number;
  memoryLimitBytes?: number;
}

const controllerRef = (object: KubeObject | undefined) =>
  object?.metadata?.ownerReferences?.find((r) => r.controller) ?? object?.metadata?.ownerReferences?.[0];

/**
 * The workload a pod belongs to, as people name it: a Deployment rather than its ReplicaSet, a CronJob rather
 * than its Job; a pod nobody owns stands for itself.
 */
function workloadOf(ctx: MetricsContext, pod: PodRow): { kind: string; name: string } {
  const cache = ctx.cluster.cache;
  const owner = controllerRef(cache.get(ctx.cluster.resolve('pods'), pod.name, pod.namespace));
  if (!owner) return { kind: 'Pod', name: pod.name };
  const middle = { ReplicaSet: ['apps', 'ReplicaSet'], Job: ['batch', 'Job'] }[owner.kind];
  const resource = middle ? ctx.cluster.find(middle[0] as string, middle[1] as string) : undefined;
  const informer = resource ? cache.informer(resource) : undefined;
  const parent = informer?.synced ? controllerRef(informer.get(owner.name, pod.namespace)) : undefined;
  return parent ? { kind: parent.kind, name: parent.name } : { kind: owner.kind, name: owner.name };
}

const add = (a: number | undefined, b: number | undefined) =>
  a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);

/**
 * Usage per workload: its pods' metrics (read as the caller, as `topPods` reads them) and their requests and
 * limits summed, busiest first.
 */
export async function topWorkloads(
  ctx: MetricsContext,
  as: Impersonation | undefined,
  query: { namespace?: string; sort: TopSort; limit?: number },
) {
  const top = await topPods(ctx, as, { namespace: query.namespace, sort: query.sort });
  if (!top.available) return top;
  const rows = new Map<string, WorkloadUsage>();
  for (const pod of top.pods) {
    const { kind, name } = workloadOf(ctx, pod);
    const key = `${pod.namespace}/${kind}/${name}`;
    const row = rows.get(key) ?? {
      kind,
      namespace: pod.namespace,
      name,
      pods: 0,
      cpuMillicores: 0,
      memoryBytes: 0,
    };
    rows.set(key, {
      ...row,
      pods: row.pods + 1,
      cpuMillicores: row.cpuMillicores + pod.cpuMillicores,
      memoryBytes: row.memoryBytes + pod.memoryBytes,
      cpuRequestMillicores: add(row.cpuRequestMillicores, pod.cpuRequestMillicores),
      cpuLimitMillicores: add(row.cpuLimitMillicores, pod.cpuLimitMillicores),
      memoryRequestBytes: add(row.memoryRequestBytes, pod.memoryRequestBytes),
      memoryLimitBytes: add(row.memoryLimitBytes, pod.memoryLimitBytes),
    });
  }
  const workloads = [...rows.values()].sort(byUsage(query.sort));
  return { available: true as const, total: workloads.length, workloads: workloads.slice(0, query.limit) };
}
