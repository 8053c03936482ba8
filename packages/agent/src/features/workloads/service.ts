import type { KubeObject } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import type { Impersonation } from '../../kube/client.ts';
import { collectionPath, objectPath } from '../../kube/discovery.ts';
import type { KubeList } from '../../kube/objects.ts';
import { type LabelSelector, selectorMatcher, selectorQuery } from '../../kube/selectors.ts';
import type { Workload } from './kinds.ts';
import type { WorkloadsContext } from './module.ts';
import {
  historyKind,
  pickRevision,
  type Revision,
  revisionsOf,
  rollbackPatch,
  runsTemplate,
} from './revisions.ts';

/** Bounds of `scale`, as the anchor product has them. */
export const replicaBounds = { min: 0, max: 10_000 };
export const podsLimit = { default: 1000, max: 10_000 };

const label = (w: Workload) => `${w.resource.kind} ${w.namespace}/${w.name}`;

/** The workload as the API server has it now, read as the caller (404 and 403 come from there). */
export function readWorkload(ctx: WorkloadsContext, w: Workload, as?: Impersonation): Promise<KubeObject> {
  return ctx.cluster.client.request<KubeObject>({ path: objectPath(w.resource, w.name, w.namespace), as });
}

function refusePaused(w: Workload, object: KubeObject, action: string): void {
  if (object.spec?.paused === true)
    throw new AppError('conflict', `${label(w)} is paused; resume its rollout before you ${action} it`);
}

/** `kubectl rollout restart`: a new pod-template annotation (Rollouts: `spec.restartAt`) rolls every pod. */
export async function restartWorkload(ctx: WorkloadsContext, w: Workload, as?: Impersonation) {
  const object = await readWorkload(ctx, w, as);
  refusePaused(w, object, 'restart');
  const restartedAt = new Date().toISOString();
  const body =
    w.resource.kind === 'Rollout'
      ? { spec: { restartAt: restartedAt } }
      : {
          spec: {
            template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': restartedAt } } },
          },
        };
  const updated = await ctx.cluster.client.request<KubeObject>({
    method: 'PATCH',
    path: objectPath(w.resource, w.name, w.namespace),
    contentType: 'application/merge-patch+json',
    body,
    as,
  });
  return { message: `${label(w)} is restarting`, uid: updated.metadata?.uid, restartedAt };
}

/** HorizontalPodAutoscalers that set this workload's replicas (from the cache, when it holds them). */
function autoscalersOf(ctx: WorkloadsContext, w: Workload): KubeObject[] {
  const hpa = ctx.cluster.find('autoscaling', 'HorizontalPodAutoscaler');
  return ctx.cluster.cache.peek(hpa).filter((h) => {
    const target = (h.spec?.scaleTargetRef ?? {}) as { kind?: string; name?: string };
    return h.metadata?.namespace === w.namespace && target.kind === w.resource.kind && target.name === w.name;
  });
}

/** `kubectl scale`: the replica count through the scale subresource. */
export async function scaleWorkload(
  ctx: WorkloadsContext,
  w: Workload,
  replicas: number,
  as?: Impersonation,
) {
  // A kind the route does not take, like any other: the request is well formed, the kind is the problem.
  if (w.resource.kind === 'DaemonSet')
    throw new AppError(
      'unknown_kind',
      `${label(w)} runs one pod per eligible node; DaemonSets cannot be scaled`,
    );
  const path = `${objectPath(w.resource, w.name, w.namespace)}/scale`;
  const before = await ctx.cluster.client.request<KubeObject>({ path, as });
  const previous = Number(before.spec?.replicas ?? 0);
  const after = await ctx.cluster.client.request<KubeObject>({
    method: 'PATCH',
    path,
    contentType: 'application/merge-patch+json',
    body: { spec: { replicas } },
    as,
  });
  const autoscaler = autoscalersOf(ctx, w)[0];
  return {
    message:
      previous === replicas
        ? `${label(w)} already has ${replicas} replicas`
        : `${label(w)} scaled from ${previous} to ${replicas} replicas`,
    uid: after.metadata?.uid,
    replicas,
    previous,
    ...(autoscaler
      ? {
          warning: `HorizontalPodAutoscaler ${autoscaler.metadata?.name} manages the replicas of ${label(w)} (${String(autoscaler.spec?.minReplicas ?? 1)}–${String(autoscaler.spec?.maxReplicas)}); it may change them again`,
        }
      : {}),
  };
}

/** The ReplicaSets or ControllerRevisions the workload controls, listed live as the caller. */
async function historyHolders(ctx: WorkloadsContext, w: Workload, workload: KubeObject, as?: Impersonation) {
  const kind = historyKind(w.resource.kind);
  const resource = ctx.cluster.find('apps', kind);
  if (!resource) throw new AppError('cluster_error', `the cluster serves no apps/${kind}`);
  const selector = workload.spec?.selector as LabelSelector | undefined;
  const list = await ctx.cluster.client.request<KubeList>({
    path: collectionPath(resource, w.namespace),
    query: { labelSelector: selector ? selectorQuery(selector) : undefined },
    as,
  });
  const uid = workload.metadata?.uid;
  return (list.items ?? []).filter((item) =>
    item.metadata?.ownerReferences?.some((ref) => ref.controller && ref.uid === uid),
  );
}

/** `kubectl rollout history`: every revision the cluster keeps, newest first. */
export async function workloadRevisions(
  ctx: WorkloadsContext,
  w: Workload,
  as?: Impersonation,
): Promise<Revision[]> {
  const workload = await readWorkload(ctx, w, as);
  return revisionsOf(w.resource.kind, workload, await historyHolders(ctx, w, workload, as));
}

/** `kubectl rollout undo [--to-revision]`: the template of an earlier revision, applied as kubectl applies it. */
export async function rollbackWorkload(
  ctx: WorkloadsContext,
  w: Workload,
  wanted: number | undefined,
  as?: Impersonation,
) {
  const workload = await readWorkload(ctx, w, as);
  refusePaused(w, workload, 'roll back');
  const holders = await historyHolders(ctx, w, workload, as);
  const target = pickRevision(revisionsOf(w.resource.kind, workload, holders), wanted, label(w));
  const uid = workload.metadata?.uid;
  if (runsTemplate(w.resource.kind, workload, target)) {
    return {
      message: `${label(w)} already runs the template of revision ${target.revision}; nothing changed`,
      uid,
      revision: target.revision,
      changed: false,
    };
  }
  const holder = holders.find((h) => h.metadata?.name === target.source.name) as KubeObject;
  const patch = rollbackPatch(w.resource.kind, workload, target, holder);
  await ctx.cluster.client.request<KubeObject>({
    method: 'PATCH',
    path: objectPath(w.resource, w.name, w.namespace),
    contentType: patch.contentType,
    body: patch.body,
    as,
  });
  return {
    message: `${label(w)} is rolling back to revision ${target.revision}`,
    uid,
    revision: target.revision,
    changed: true,
  };
}

/** The pods the workload selects, from the cache (kubectl's view: the selector, in the workload's namespace). */
export async function workloadPods(ctx: WorkloadsContext, w: Workload, limit: number, as?: Impersonation) {
  const workload = await readWorkload(ctx, w, as);
  const matches = selectorMatcher(workload.spec?.selector as LabelSelector | undefined);
  const pods = ctx.cluster.cache
    .list(ctx.cluster.resolve('pods'), w.namespace)
    .filter((pod) => matches(pod.metadata?.labels))
    .sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
  return { selector: workload.spec?.selector ?? {}, total: pods.length, items: pods.slice(0, limit) };
}
