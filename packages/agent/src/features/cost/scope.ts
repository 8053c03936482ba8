import { linearRegex } from '@binnacle/common';
import { requireAccess } from '../../http/caller.ts';
import { visibleNamespaces } from '../../http/caller-view.ts';
import type { Impersonation } from '../../kube/client.ts';
import { quote } from '../../scope/metricsdb/client.ts';
import type { MetricsStores } from '../../scope/metricsdb/stores.ts';
import { requireWorkload, workloadPodPattern } from '../../scope/metricsdb/workload-pods.ts';
import type { CostContext } from './module.ts';
import { costWindow } from './window.ts';

export interface NamespaceScope {
  /** PromQL label matchers, one per query branch; none: the caller sees no namespace. */
  selectors: string[];
  /** Every namespace: only then are cluster-wide figures (node cost, idle, unclaimed volumes) shown. */
  whole: boolean;
  namespaces?: string[];
}

/**
 * The namespaces an answer covers. The store has no RBAC, so as in the metricsdb routes the agent decides: a
 * named namespace needs `list pods` there (403 otherwise), else the answer covers the namespaces where the
 * caller may list pods (all of them, or those under `--namespace`).
 */
export async function namespaceScope(
  ctx: CostContext,
  caller: Impersonation | undefined,
  namespace: string | undefined,
): Promise<NamespaceScope> {
  if (namespace) {
    await requireAccess(ctx, caller, { verb: 'list', group: '', resource: 'pods', namespace });
    return { selectors: [`namespace=${quote(namespace)}`], whole: false, namespaces: [namespace] };
  }
  const watched = ctx.cluster.cache.namespaces;
  const requested = watched ? [...watched] : undefined;
  const namespaces = await visibleNamespaces(ctx, caller, { group: '', resource: 'pods' }, requested);
  if (!namespaces) return { selectors: ['namespace!=""'], whole: true };
  if (namespaces.length === 0) return { selectors: [], whole: false, namespaces };
  return { selectors: [`namespace=~${quote(namespaces.join('|'))}`], whole: false, namespaces };
}

export interface WorkloadTarget {
  kind: string;
  namespace: string;
  name: string;
}

/** A workload the caller may `get`, which must exist, with the names its pods have (past and present). */
export async function resolveWorkload(
  ctx: CostContext,
  caller: Impersonation | undefined,
  target: WorkloadTarget,
) {
  const { resource } = await requireWorkload(ctx, caller, target);
  const pods = workloadPodPattern(ctx, resource.kind, target.namespace, target.name);
  return {
    kind: resource.kind,
    namespace: target.namespace,
    name: target.name,
    pods,
    /** Prometheus anchors its regular expressions, and runs them on RE2; so does this one. */
    matches: linearRegex(`^(?:${pods})$`),
  };
}

export type ResolvedWorkload = Awaited<ReturnType<typeof resolveWorkload>>;

/** One selector per namespace, its workloads' pod patterns joined, so a set costs one query per figure. */
export function workloadSelectors(workloads: ResolvedWorkload[]): string[] {
  return [...Map.groupBy(workloads, (w) => w.namespace)].map(
    ([namespace, group]) => `namespace=${quote(namespace)},pod=~${quote(group.map((w) => w.pods).join('|'))}`,
  );
}

type Window = ReturnType<typeof costWindow>;

/**
 * An answer about one workload, as its cost and its trend both are: the window checked, then the workload
 * resolved (the caller's `get` on it checked) before any store is read.
 */
export const aboutWorkload =
  <T>(answer: (stores: MetricsStores, workload: ResolvedWorkload, window: Window) => Promise<T>) =>
  async (
    ctx: CostContext,
    stores: MetricsStores,
    caller: Impersonation | undefined,
    target: WorkloadTarget,
    query: { window?: string },
  ) => {
    const window = costWindow(query.window);
    return answer(stores, await resolveWorkload(ctx, caller, target), window);
  };

/** The same for a set of workloads priced together (an application). */
export const aboutApplication =
  <T>(answer: (stores: MetricsStores, workloads: ResolvedWorkload[], window: Window) => Promise<T>) =>
  async (
    ctx: CostContext,
    stores: MetricsStores,
    caller: Impersonation | undefined,
    body: { workloads: WorkloadTarget[]; window?: string },
  ) => {
    const window = costWindow(body.window);
    const workloads = await Promise.all(body.workloads.map((target) => resolveWorkload(ctx, caller, target)));
    return answer(stores, workloads, window);
  };
