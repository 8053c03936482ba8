import type { KubeObject } from '@binnacle/common';
import { type LabelSelector, selectorMatcher } from '../../../kube/selectors.ts';

/** A PodDisruptionBudget that covers pods a drain evicts, and what it does to the drain. */
export interface BudgetVerdict {
  namespace: string;
  name: string;
  /** `status.disruptionsAllowed` now, as the disruption controller counted it. */
  disruptionsAllowed: number;
  /** Its pods the drain evicts. */
  evicted: number;
  /** ok: all may go at once; waits: they go as their replacements become ready; blocks: some never may. */
  verdict: 'ok' | 'waits' | 'blocks';
  reason: string;
}

/** One budget and the pods of the drain it covers. */
export interface Budget {
  pdb: KubeObject;
  namespace: string;
  name: string;
  allowed: number;
  covers: (pod: KubeObject) => boolean;
}

export function budgetsOf(pdbs: readonly KubeObject[]): Budget[] {
  return pdbs.map((pdb) => {
    const namespace = pdb.metadata?.namespace ?? '';
    const selects = selectorMatcher(pdb.spec?.selector as LabelSelector | undefined);
    const status = pdb.status as { disruptionsAllowed?: number } | undefined;
    return {
      pdb,
      namespace,
      name: pdb.metadata?.name ?? '',
      allowed: status?.disruptionsAllowed ?? 0,
      covers: (pod) => pod.metadata?.namespace === namespace && selects(pod.metadata?.labels),
    };
  });
}

/** The budget's limit in its own words: `minAvailable 2, 2 healthy of 3`. */
export function limitOf(budget: Budget): string {
  const spec = budget.pdb.spec as { minAvailable?: unknown; maxUnavailable?: unknown } | undefined;
  const status = budget.pdb.status as { currentHealthy?: number; expectedPods?: number } | undefined;
  const limit =
    spec?.minAvailable !== undefined
      ? `minAvailable ${String(spec.minAvailable)}`
      : `maxUnavailable ${String(spec?.maxUnavailable)}`;
  return `${limit}, ${status?.currentHealthy ?? '?'} healthy of ${status?.expectedPods ?? '?'}`;
}

/**
 * What a budget does to a drain that evicts `evicted` of its pods, `lost` of which come back nowhere (their
 * replacement stays Pending, or nothing recreates them). Evictions spend `disruptionsAllowed`; a replacement that
 * becomes ready gives one back (kubectl retries a refused eviction every 5 s), one that never runs does not. So
 * with none allowed nothing may go; otherwise all go but `lost - allowed`, which stay on the node.
 */
export function judgeBudget(
  budget: Budget,
  evicted: number,
  lost: number,
): BudgetVerdict & { blocked: number } {
  const base = {
    namespace: budget.namespace,
    name: budget.name,
    disruptionsAllowed: budget.allowed,
    evicted,
  };
  const limit = limitOf(budget);
  if (budget.allowed <= 0)
    return {
      ...base,
      verdict: 'blocks',
      blocked: evicted,
      reason: `allows no disruption now (${limit}): none of its ${evicted} pod(s) may be evicted`,
    };
  const blocked = Math.max(0, lost - budget.allowed);
  if (blocked > 0)
    return {
      ...base,
      verdict: 'blocks',
      blocked,
      reason: `allows ${budget.allowed} disruption(s) (${limit}) and ${lost} of its pods would not run again: ${blocked} stay on the node`,
    };
  if (evicted > budget.allowed)
    return {
      ...base,
      verdict: 'waits',
      blocked: 0,
      reason: `allows ${budget.allowed} disruption(s) at a time (${limit}): the other evictions wait for replacements to become ready`,
    };
  return { ...base, verdict: 'ok', blocked: 0, reason: `allows ${budget.allowed} disruption(s) (${limit})` };
}
