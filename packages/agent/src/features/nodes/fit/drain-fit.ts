import { codePointOrder, type KubeObject } from '@binnacle/common';
import { type DrainOptions, planDrain } from '../drain-plan.ts';
import { type Budget, type BudgetVerdict, budgetsOf, judgeBudget } from './budgets.ts';
import { finished, nodeNameOf, nodeStates } from './node-states.ts';
import { type Placement, placePods, queueOrder } from './placement.ts';
import { type DrainSequence, sequenceDrain } from './sequence.ts';

/** What the simulation reads: the cache's nodes, pods, PodDisruptionBudgets and namespaces at one moment. */
export interface FitSnapshot {
  nodes: KubeObject[];
  pods: KubeObject[];
  budgets: KubeObject[];
  namespaces: KubeObject[];
  daemonSetExists: (namespace: string, name: string) => boolean;
}

/**
 * placed: its replacement lands on `target`; pending: its replacement fits nowhere (`reason` is the scheduler's
 * message); blocked: a PodDisruptionBudget keeps it on its node; not-recreated: nothing brings it back (no
 * controller, or finished); skipped: the drain leaves it (DaemonSet, mirror pod); refused: it stops the drain.
 */
export type FitOutcome = 'placed' | 'pending' | 'blocked' | 'not-recreated' | 'skipped' | 'refused';

export interface FitPod {
  namespace: string;
  name: string;
  /** The node it runs on now. */
  node: string;
  outcome: FitOutcome;
  target?: string;
  reason?: string;
}

export interface DrainFit {
  nodes: string[];
  /** Every evicted pod runs again or is meant to go, no budget blocks, no pod refuses the drain. */
  fits: boolean;
  summary: string;
  pods: FitPod[];
  budgets: BudgetVerdict[];
  sequence: DrainSequence;
}

const keyOf = (pod: FitPod) => `${pod.namespace}/${pod.name}`;
const controlled = (pod: KubeObject) => pod.metadata?.ownerReferences?.some((ref) => ref.controller) === true;

function namespaceLabelsOf(namespaces: readonly KubeObject[]) {
  const labels = new Map(namespaces.map((ns) => [ns.metadata?.name ?? '', ns.metadata?.labels]));
  return (namespace: string) => labels.get(namespace);
}

const count = (pods: FitPod[], outcome: FitOutcome) => pods.filter((p) => p.outcome === outcome).length;

function summaryOf(
  nodes: string[],
  pods: FitPod[],
  budgets: BudgetVerdict[],
  sequence: DrainSequence,
): string {
  const subject = nodes.length === 1 ? `node ${nodes[0]}` : `${nodes.length} nodes`;
  const parts = [`${count(pods, 'placed')} placed elsewhere`];
  for (const [outcome, words] of [
    ['pending', 'would stay Pending'],
    ['blocked', 'kept by a PodDisruptionBudget'],
    ['not-recreated', 'not recreated'],
    ['refused', 'refusing the drain'],
    ['skipped', 'left on the node'],
  ] as const) {
    const n = count(pods, outcome);
    if (n > 0) parts.push(`${n} ${words}`);
  }
  const blocking = budgets.filter((b) => b.verdict === 'blocks').map((b) => `${b.namespace}/${b.name}`);
  const budgetsPart = blocking.length ? `; blocking PodDisruptionBudgets: ${blocking.join(', ')}` : '';
  const verdict = sequence.possible ? 'fits' : 'does not fit';
  return `draining ${subject} ${verdict}: ${parts.join(', ')}${budgetsPart}`;
}

/** kubectl's filters on each drained node: the pods evicted (each with its first report) and those left or refusing. */
function sortPods(snapshot: FitSnapshot, nodes: string[], options: DrainOptions) {
  const podsByNode = new Map<string, KubeObject[]>(nodes.map((n) => [n, []]));
  for (const pod of snapshot.pods) podsByNode.get(nodeNameOf(pod) ?? '')?.push(pod);
  const report = new Map<KubeObject, FitPod>();
  const left: FitPod[] = [];
  for (const node of nodes) {
    const plan = planDrain(podsByNode.get(node) ?? [], options, snapshot.daemonSetExists);
    for (const p of plan.skipped) left.push({ ...p, node, outcome: 'skipped' });
    for (const p of plan.refused) left.push({ ...p, node, outcome: 'refused' });
    for (const { pod, namespace, name } of plan.evict) {
      const gone = finished(pod) || !controlled(pod);
      const reason = finished(pod) ? 'finished; deleted, not recreated' : 'no controller recreates it';
      report.set(pod, {
        namespace,
        name,
        node,
        outcome: gone ? 'not-recreated' : 'placed',
        ...(gone ? { reason } : {}),
      });
    }
  }
  return { report, left };
}

/** The budget covering each evicted pod (the first, by namespace then selector), and each budget's pods. */
function coverage(budgets: Budget[], evicted: KubeObject[]) {
  const inNamespace = Map.groupBy(budgets, (b) => b.namespace);
  const coveredBy = new Map<KubeObject, Budget | undefined>();
  const podsOf = new Map<Budget, KubeObject[]>();
  for (const pod of evicted) {
    const budget = inNamespace.get(pod.metadata?.namespace ?? '')?.find((b) => b.covers(pod));
    coveredBy.set(pod, budget);
    if (!budget) continue;
    const pods = podsOf.get(budget);
    if (pods) pods.push(pod);
    else podsOf.set(budget, [pod]);
  }
  return { coveredBy, podsOf };
}

/**
 * Judges each budget against its pods' outcomes and marks the pods it keeps on their node: all of them when it
 * allows no disruption, else the last ones that would not run again beyond what it allows.
 */
function judgeBudgets(podsOf: Map<Budget, KubeObject[]>, report: Map<KubeObject, FitPod>): BudgetVerdict[] {
  const verdicts: BudgetVerdict[] = [];
  for (const [budget, pods] of podsOf) {
    const mine = [...pods].sort(queueOrder);
    const lost = mine.filter((pod) => report.get(pod)?.outcome !== 'placed');
    const { blocked, ...verdict } = judgeBudget(budget, mine.length, lost.length);
    verdicts.push(verdict);
    if (blocked === 0) continue;
    const keptOnNode = budget.allowed <= 0 ? mine : lost.slice(lost.length - blocked);
    for (const pod of keptOnNode)
      Object.assign(report.get(pod) as FitPod, {
        outcome: 'blocked',
        target: undefined,
        reason: `PodDisruptionBudget ${budget.name} ${verdict.reason}`,
      });
  }
  return verdicts.sort((a, b) => codePointOrder(`${a.namespace}/${a.name}`, `${b.namespace}/${b.name}`));
}

/**
 * Whether the pods a drain of `drained` evicts fit on the other nodes (ADR 0123): kubectl's filters sort each node's
 * pods, the replacements of evicted pods are placed one after another with the scheduler's filters on the nodes
 * that remain (the drained ones count as cordoned), PodDisruptionBudgets are judged against what is evicted and
 * what would not run again, and the nodes are ordered into batches that keep every budget satisfied.
 */
export function drainFit(snapshot: FitSnapshot, drained: string[], options: DrainOptions): DrainFit {
  const nodes = [...new Set(drained)].sort(codePointOrder);
  const { report, left } = sortPods(snapshot, nodes, options);
  const evicted = [...report.keys()];
  const { coveredBy, podsOf } = coverage(budgetsOf(snapshot.budgets), evicted);

  // A budget that allows no disruption keeps its pods where they are: their replacements take no room.
  const toPlace = evicted
    .filter((pod) => (coveredBy.get(pod)?.allowed ?? 1) > 0 && report.get(pod)?.outcome === 'placed')
    .sort(queueOrder);
  const states = nodeStates(snapshot.nodes, snapshot.pods, new Set(nodes), new Set(evicted));
  const placements = placePods(toPlace, states, namespaceLabelsOf(snapshot.namespaces));
  for (const [index, pod] of toPlace.entries())
    Object.assign(report.get(pod) as FitPod, described(placements[index]));
  const budgets = judgeBudgets(podsOf, report);

  const pods = [...[...report.values()].sort((a, b) => codePointOrder(keyOf(a), keyOf(b))), ...left];
  const sequence = sequenceDrain(
    nodes,
    pods,
    evicted.map((pod) => ({ node: nodeNameOf(pod) ?? '', budget: coveredBy.get(pod) })),
  );
  return {
    nodes,
    fits: sequence.possible,
    summary: summaryOf(nodes, pods, budgets, sequence),
    pods,
    budgets,
    sequence,
  };
}

function described(placement: Placement | undefined): Partial<FitPod> {
  if (!placement) return {};
  if (placement.node !== undefined) return { target: placement.node };
  return { outcome: 'pending', reason: placement.message };
}
