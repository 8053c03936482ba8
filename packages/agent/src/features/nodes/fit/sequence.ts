import type { Budget } from './budgets.ts';
import type { FitPod } from './drain-fit.ts';

/** Nodes drained together: no PodDisruptionBudget refuses any of their evictions. */
export interface DrainBatch {
  nodes: string[];
  evictions: number;
  /** Budgets that allow fewer disruptions than this batch (one node) evicts: its evictions wait for replacements. */
  waitsFor?: string[];
}

export interface DrainSequence {
  possible: boolean;
  batches: DrainBatch[];
  /** Why no order keeps every budget satisfied and every pod running. */
  reason?: string;
}

const listed = (pods: FitPod[], limit = 5) => {
  const names = pods.slice(0, limit).map((p) => `${p.namespace}/${p.name}`);
  return pods.length > limit ? `${names.join(', ')} and ${pods.length - limit} more` : names.join(', ');
};

/** Why no sequence exists, if something keeps a pod from running again or stops the drain. */
function obstacle(pods: FitPod[]): string | undefined {
  const of = (outcome: FitPod['outcome']) => pods.filter((p) => p.outcome === outcome);
  const refused = of('refused');
  if (refused.length)
    return `the drain would refuse before evicting anything: ${listed(refused)} (${refused[0]?.reason})`;
  const blocked = of('blocked');
  if (blocked.length)
    return `PodDisruptionBudgets keep ${blocked.length} pod(s) on their nodes: ${listed(blocked)}`;
  const pending = of('pending');
  if (pending.length)
    return `${pending.length} pod(s) would stay Pending: ${listed(pending)} (${pending[0]?.reason})`;
  return undefined;
}

/**
 * An order of the nodes, in batches drained together, that keeps every PodDisruptionBudget satisfied: a node joins
 * the batch while no budget would then be asked for more evictions than it allows at once; a node that alone asks
 * more of a budget that allows some is drained by itself, its evictions waiting for replacements to become ready.
 * The group counts as cordoned throughout (ADR 0123), so a pod never moves twice; the placement of every
 * replacement was checked before, so budgets are whole again between batches.
 */
export function sequenceDrain(
  nodes: string[],
  pods: FitPod[],
  evictions: { node: string; budget?: Budget }[],
): DrainSequence {
  const reason = obstacle(pods);
  if (reason) return { possible: false, batches: [], reason };
  const perNode = new Map<string, Map<Budget, number>>(nodes.map((n) => [n, new Map()]));
  const totals = new Map<string, number>(nodes.map((n) => [n, 0]));
  for (const { node, budget } of evictions) {
    totals.set(node, (totals.get(node) ?? 0) + 1);
    const counts = perNode.get(node);
    if (budget && counts) counts.set(budget, (counts.get(budget) ?? 0) + 1);
  }
  const batches: DrainBatch[] = [];
  let current: { nodes: string[]; counts: Map<Budget, number>; evictions: number } | undefined;
  const close = () => {
    if (current) batches.push({ nodes: current.nodes, evictions: current.evictions });
    current = undefined;
  };
  for (const node of nodes) {
    const counts = perNode.get(node) ?? new Map<Budget, number>();
    const over = [...counts]
      .filter(([budget, n]) => n > budget.allowed)
      .map(([b]) => `${b.namespace}/${b.name}`);
    if (over.length > 0) {
      close();
      batches.push({ nodes: [node], evictions: totals.get(node) ?? 0, waitsFor: over });
      continue;
    }
    const fitsBatch =
      current !== undefined &&
      [...counts].every(([budget, n]) => (current?.counts.get(budget) ?? 0) + n <= budget.allowed);
    if (!fitsBatch) {
      close();
      current = { nodes: [], counts: new Map(), evictions: 0 };
    }
    const batch = current as NonNullable<typeof current>;
    batch.nodes.push(node);
    batch.evictions += totals.get(node) ?? 0;
    for (const [budget, n] of counts) batch.counts.set(budget, (batch.counts.get(budget) ?? 0) + n);
  }
  close();
  return { possible: true, batches };
}
