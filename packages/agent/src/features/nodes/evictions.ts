import { setTimeout as sleep } from 'node:timers/promises';
import { type KubeObject, mapConcurrently } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import type { Impersonation } from '../../kube/client.ts';
import { type LabelSelector, selectorMatcher } from '../../kube/selectors.ts';
import type { NodesContext } from './module.ts';

/** What happened to one pod the drain tried to move. */
export type EvictionStatus = 'evicted' | 'terminating' | 'blocked' | 'failed';

export interface EvictionResult {
  namespace: string;
  name: string;
  status: EvictionStatus;
  reason?: string;
}

/** kubectl drain's pace: a PodDisruptionBudget refusal is retried every 5 s; deletion is checked every second. */
export const evictionPace = { retryMs: 5000, deletionCheckMs: 1000, concurrency: 32 };

export interface EvictionOptions {
  deadline: number;
  gracePeriodSeconds?: number;
  as?: Impersonation;
  signal: AbortSignal;
}

const podPath = (namespace: string, name: string) =>
  `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}`;

/** The PodDisruptionBudgets (from the cache) that select the pod, in words, to say what blocks an eviction. */
function budgetsOf(ctx: NodesContext, pod: KubeObject): string {
  const resource = ctx.cluster.find('policy', 'PodDisruptionBudget');
  const names = ctx.cluster.cache
    .peek(resource)
    .filter(
      (pdb) =>
        pdb.metadata?.namespace === pod.metadata?.namespace &&
        selectorMatcher(pdb.spec?.selector as LabelSelector | undefined)(pod.metadata?.labels),
    )
    .map((pdb) => {
      const limit =
        pdb.spec?.minAvailable !== undefined
          ? `minAvailable ${String(pdb.spec.minAvailable)}`
          : `maxUnavailable ${String(pdb.spec?.maxUnavailable)}`;
      return `${pdb.metadata?.name} (${limit}, ${String(pdb.status?.currentHealthy ?? '?')} healthy)`;
    });
  return names.length ? `PodDisruptionBudget ${names.join(', ')}` : 'a PodDisruptionBudget';
}

const remaining = (deadline: number) => deadline - Date.now();

/** Sleeps until the pace or the deadline, whichever comes first; false when the deadline has passed. */
async function waitFor(ms: number, options: EvictionOptions): Promise<boolean> {
  const left = remaining(options.deadline);
  if (left <= 0) return false;
  await sleep(Math.min(ms, left), undefined, { signal: options.signal });
  return true;
}

/** Asks the Eviction API to move the pod, retrying while a PodDisruptionBudget refuses, until the deadline. */
async function evict(ctx: NodesContext, pod: KubeObject, options: EvictionOptions): Promise<EvictionResult> {
  const namespace = pod.metadata?.namespace ?? '';
  const name = pod.metadata?.name ?? '';
  for (;;) {
    try {
      await ctx.cluster.client.request({
        method: 'POST',
        path: `${podPath(namespace, name)}/eviction`,
        body: {
          apiVersion: 'policy/v1',
          kind: 'Eviction',
          metadata: { namespace, name },
          ...(options.gracePeriodSeconds !== undefined
            ? { deleteOptions: { gracePeriodSeconds: options.gracePeriodSeconds } }
            : {}),
        },
        as: options.as,
        signal: options.signal,
      });
      return await waitForDeletion(ctx, pod, options);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.code === 'not_found') return { namespace, name, status: 'evicted', reason: 'already gone' };
      if (error.code !== 'rate_limited') return { namespace, name, status: 'failed', reason: error.message };
      if (!(await waitFor(evictionPace.retryMs, options)))
        return { namespace, name, status: 'blocked', reason: `${budgetsOf(ctx, pod)} refuses the eviction` };
    }
  }
}

/** After an accepted eviction: the pod is gone once the API server no longer has it (or has a new one by that name). */
async function waitForDeletion(
  ctx: NodesContext,
  pod: KubeObject,
  options: EvictionOptions,
): Promise<EvictionResult> {
  const namespace = pod.metadata?.namespace ?? '';
  const name = pod.metadata?.name ?? '';
  for (;;) {
    try {
      const now = await ctx.cluster.client.request<KubeObject>({
        path: podPath(namespace, name),
        as: options.as,
        signal: options.signal,
      });
      if (now.metadata?.uid !== pod.metadata?.uid) return { namespace, name, status: 'evicted' };
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found')
        return { namespace, name, status: 'evicted' };
      throw error;
    }
    if (!(await waitFor(evictionPace.deletionCheckMs, options)))
      return { namespace, name, status: 'terminating', reason: 'eviction accepted; still terminating' };
  }
}

/** Evicts the pods (a bounded number at once) and reports each; never runs past the deadline by more than a request. */
export async function evictPods(
  ctx: NodesContext,
  pods: KubeObject[],
  options: EvictionOptions,
): Promise<EvictionResult[]> {
  return mapConcurrently(pods, evictionPace.concurrency, (pod) => evict(ctx, pod, options));
}
