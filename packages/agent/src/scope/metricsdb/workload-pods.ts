import { type KubeObject, podOwnerGroups } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import type { AgentContext } from '../../context.ts';
import { requireAccess } from '../../http/caller.ts';
import type { Impersonation } from '../../kube/client.ts';

/** What finding a workload's pods reads: the cache, and the access reviews of a tunneled caller. */
type WorkloadReads = Pick<AgentContext, 'access' | 'cluster'>;

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const controllerRef = (object: KubeObject | undefined) =>
  object?.metadata?.ownerReferences?.find((r) => r.controller) ?? object?.metadata?.ownerReferences?.[0];

/** Kinds whose pods the metrics routes roll up, with their API groups. */
const groups: Record<string, string> = { Pod: '', ...podOwnerGroups };
export const workloadKinds = Object.keys(groups);

export function workloadResource(ctx: WorkloadReads, kind: string) {
  const group = groups[kind];
  if (group === undefined)
    throw new AppError(
      'unknown_kind',
      `kind: "${kind}" has no pods to chart; use one of ${workloadKinds.join(', ')} (or Node)`,
    );
  return ctx.cluster.resolve(kind, group);
}

/** A workload the caller may `get` and the cache holds: 403 or 404 otherwise. */
export async function requireWorkload(
  ctx: WorkloadReads,
  caller: Impersonation | undefined,
  target: { kind: string; namespace: string; name: string },
) {
  const resource = workloadResource(ctx, ctx.cluster.resolve(target.kind).kind);
  await requireAccess(ctx, caller, {
    verb: 'get',
    group: resource.group,
    resource: resource.plural,
    namespace: target.namespace,
  });
  const object = ctx.cluster.cache.get(resource, target.name, target.namespace);
  if (!object)
    throw new AppError('not_found', `${resource.kind} ${target.namespace}/${target.name} not found`);
  return { resource, object };
}

/** The workload a pod belongs to as people name it: a Deployment rather than its ReplicaSet, a CronJob rather than its Job. */
export function podWorkload(ctx: WorkloadReads, pod: KubeObject): { kind: string; name: string } {
  const owner = controllerRef(pod);
  if (!owner) return { kind: 'Pod', name: pod.metadata?.name ?? '' };
  const middle =
    owner.kind === 'ReplicaSet'
      ? ['apps', 'ReplicaSet']
      : owner.kind === 'Job'
        ? ['batch', 'Job']
        : undefined;
  const resource = middle ? ctx.cluster.find(middle[0] ?? '', middle[1] ?? '') : undefined;
  const informer = resource ? ctx.cluster.cache.informer(resource) : undefined;
  const parent = informer?.synced
    ? controllerRef(informer.get(owner.name, pod.metadata?.namespace))
    : undefined;
  return parent ? { kind: parent.kind, name: parent.name } : { kind: owner.kind, name: owner.name };
}

/**
 * A regular expression for the names of a workload's pods, past and present, so history covers replaced pods:
 * the pods the cache holds now, plus the names its controller gives pods (`<replicaset>-xxxxx` for each
 * ReplicaSet a Deployment still keeps, `<statefulset>-N`, `<daemonset|job>-xxxxx`, `<cronjob>-<time>-xxxxx`).
 */
export function workloadPodPattern(
  ctx: WorkloadReads,
  kind: string,
  namespace: string,
  name: string,
): string {
  const pods = ctx.cluster.cache.list(ctx.cluster.resolve('pods'), namespace);
  const current = pods
    .filter((pod) => {
      const workload = podWorkload(ctx, pod);
      if (kind === 'ReplicaSet' || kind === 'Job') return controllerRef(pod)?.name === name;
      return workload.kind === kind && workload.name === name;
    })
    .map((pod) => escapeRegex(pod.metadata?.name ?? ''));
  const n = escapeRegex(name);
  const generated: Record<string, string[]> = {
    Pod: [n],
    Deployment: ctx.cluster.cache
      .list(ctx.cluster.resolve('ReplicaSet', 'apps'), namespace)
      .filter((rs) => controllerRef(rs)?.name === name && controllerRef(rs)?.kind === 'Deployment')
      .map((rs) => `${escapeRegex(rs.metadata?.name ?? '')}-[a-z0-9]{5}`),
    ReplicaSet: [`${n}-[a-z0-9]{5}`],
    StatefulSet: [`${n}-[0-9]+`],
    DaemonSet: [`${n}-[a-z0-9]{5}`],
    Job: [`${n}-[a-z0-9]{5}`],
    CronJob: [`${n}-[0-9]+-[a-z0-9]{5}`],
  };
  return [...new Set([...current, ...(generated[kind] ?? [])])].join('|');
}
