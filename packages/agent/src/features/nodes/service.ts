import { type KubeObject, parseDuration } from '@binnacle/common';
import { AppError, badRequest } from '@binnacle/common/server';
import type { Impersonation } from '../../kube/client.ts';
import type { KubeList } from '../../kube/objects.ts';
import { type DrainOptions, type PlannedPod, planDrain } from './drain-plan.ts';
import { type EvictionResult, evictPods } from './evictions.ts';
import type { NodesContext } from './module.ts';

export const nodePath = (name: string) => `/api/v1/nodes/${encodeURIComponent(name)}`;
/** A drain answers within its timeout: 60 s unless asked otherwise, 15 minutes at most. */
export const drainTimeout = { default: '60s', maxMs: 15 * 60_000 };

/** The node as the API server has it, read as the caller. */
export function readNode(ctx: NodesContext, name: string, as?: Impersonation): Promise<KubeObject> {
  return ctx.cluster.client.request<KubeObject>({ path: nodePath(name), as });
}

/** `kubectl cordon` / `uncordon`: marks the node (un)schedulable; says so when it already was. */
export async function setSchedulable(
  ctx: NodesContext,
  name: string,
  schedulable: boolean,
  as?: Impersonation,
) {
  const node = await readNode(ctx, name, as);
  const wasCordoned = node.spec?.unschedulable === true;
  const changed = wasCordoned === schedulable;
  if (changed) {
    await ctx.cluster.client.request({
      method: 'PATCH',
      path: nodePath(name),
      contentType: 'application/merge-patch+json',
      // Uncordoning removes the field, as kubectl does.
      body: { spec: { unschedulable: schedulable ? null : true } },
      as,
    });
  }
  const state = schedulable ? 'schedulable' : 'cordoned';
  return {
    message: changed ? `node ${name} is ${state}` : `node ${name} was already ${state}`,
    uid: node.metadata?.uid,
    unschedulable: !schedulable,
    changed,
  };
}

export interface DrainRequest extends Partial<DrainOptions> {
  gracePeriodSeconds?: number;
  timeout?: string;
  dryRun?: boolean;
}

export type DrainPodStatus = EvictionResult['status'] | 'skipped' | 'refused' | 'planned';
export interface DrainPod extends PlannedPod {
  status: DrainPodStatus;
}

function timeoutMs(text: string): number {
  let ms: number;
  try {
    ms = parseDuration(text, 'body field "timeout"');
  } catch (error) {
    throw badRequest((error as Error).message);
  }
  if (ms < 1000 || ms > drainTimeout.maxMs)
    throw badRequest(
      `body field "timeout" must be between 1s and ${drainTimeout.maxMs / 60_000}m, got ${text}`,
    );
  return ms;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** The pods bound to the node, listed live as the caller (kubectl's field selector). */
async function podsOn(ctx: NodesContext, node: string, as?: Impersonation): Promise<KubeObject[]> {
  const list = await ctx.cluster.client.request<KubeList>({
    path: '/api/v1/pods',
    query: { fieldSelector: `spec.nodeName=${node}` },
    as,
  });
  return list.items ?? [];
}

/** Whether a DaemonSet exists, asked as the caller; only a 404 means it does not. */
async function daemonSetsThatExist(ctx: NodesContext, pods: KubeObject[], as?: Impersonation) {
  const wanted = new Set<string>();
  for (const pod of pods) {
    const ref = pod.metadata?.ownerReferences?.find((r) => r.controller && r.kind === 'DaemonSet');
    if (ref) wanted.add(`${pod.metadata?.namespace}/${ref.name}`);
  }
  const existing = new Set<string>();
  for (const key of wanted) {
    const [namespace, name] = key.split('/') as [string, string];
    try {
      await ctx.cluster.client.request({
        path: `/apis/apps/v1/namespaces/${encodeURIComponent(namespace)}/daemonsets/${encodeURIComponent(name)}`,
        as,
      });
      existing.add(key);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'not_found') throw error;
    }
  }
  return (namespace: string, name: string) => existing.has(`${namespace}/${name}`);
}

/**
 * `kubectl drain`: cordons the node, sorts its pods with kubectl's rules, then evicts through the Eviction API so
 * PodDisruptionBudgets are honoured (retried until the timeout), and waits for the evicted pods to go. It answers
 * within the timeout; whatever could not move is listed, and the node stays cordoned. A dry run only plans.
 */
export async function drainNode(
  ctx: NodesContext,
  name: string,
  request: DrainRequest,
  signal: AbortSignal,
  as?: Impersonation,
) {
  const deadline = Date.now() + timeoutMs(request.timeout ?? drainTimeout.default);
  const options: DrainOptions = {
    ignoreDaemonSets: request.ignoreDaemonSets ?? true,
    deleteEmptyDirData: request.deleteEmptyDirData ?? false,
    force: request.force ?? false,
  };
  const node = await readNode(ctx, name, as);
  const uid = node.metadata?.uid;
  if (!request.dryRun) await setSchedulable(ctx, name, false, as);
  const pods = await podsOn(ctx, name, as);
  const plan = planDrain(pods, options, await daemonSetsThatExist(ctx, pods, as));
  const skipped: DrainPod[] = plan.skipped.map((p) => ({ ...p, status: 'skipped' }));
  const refused: DrainPod[] = plan.refused.map((p) => ({ ...p, status: 'refused' }));
  const planned: DrainPod[] = plan.evict.map(({ pod: _, ...p }) => ({ ...p, status: 'planned' }));
  const outcome = (podsReport: DrainPod[], complete: boolean, message: string) => {
    const details = {
      node: name,
      cordoned: !request.dryRun || node.spec?.unschedulable === true,
      complete,
      dryRun: request.dryRun ?? false,
      pods: podsReport,
    };
    // An unfinished drain is answered as an error that still carries the whole report.
    const incomplete = complete ? undefined : new AppError('drain_incomplete', message, { extra: details });
    return { message, uid, ...details, incomplete };
  };
  const stays = request.dryRun ? '' : '; the node stays cordoned';

  if (refused.length > 0) {
    const detail = refused.map((p) => `${p.namespace}/${p.name}: ${p.reason}`).join('; ');
    const message = `drain of node ${name} refused before evicting anything: ${detail}${stays}`;
    return outcome([...refused, ...skipped, ...planned], false, message);
  }
  if (request.dryRun) {
    return outcome(
      [...planned, ...skipped],
      true,
      `dry run: draining node ${name} would evict ${plural(planned.length, 'pod')} and leave ${plural(skipped.length, 'pod')}`,
    );
  }
  const results = await evictPods(
    ctx,
    plan.evict.map((p) => p.pod),
    { deadline, gracePeriodSeconds: request.gracePeriodSeconds, as, signal },
  );
  const moved: DrainPod[] = results.map((result, index) => ({
    ...result,
    reason: result.reason ?? plan.evict[index]?.reason,
  }));
  const left = moved.filter((p) => p.status !== 'evicted');
  const summary = `${plural(moved.length - left.length, 'pod')} evicted, ${plural(skipped.length, 'pod')} left on purpose`;
  if (left.length === 0) return outcome([...moved, ...skipped], true, `node ${name} drained: ${summary}`);
  const detail = left.map((p) => `${p.namespace}/${p.name} ${p.status}${p.reason ? ` (${p.reason})` : ''}`);
  const message = `drain of node ${name} did not finish: ${plural(left.length, 'pod')} left — ${detail.join('; ')}${stays}`;
  return outcome([...moved, ...skipped], false, message);
}
