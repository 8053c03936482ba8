import { codePointOrder, type KubeObject } from '@binnacle/common';
import { type NamespaceLabels, type NodeState, podNeeds, whyNot } from './filters.ts';
import { addAmounts, podRequests } from './requests.ts';

/** Where the simulation put a pod's replacement, or why every node refused it. */
export type Placement =
  | { node: string }
  | { node?: undefined; message: string; reasons: Record<string, number> };

/**
 * The scheduler's FitError text: `0/N nodes are available: ` then `<count> <reason>` per reason, sorted as strings
 * (so the order carries no meaning), and a full stop.
 */
export function schedulerMessage(total: number, histogram: Record<string, number>): string {
  const parts = Object.entries(histogram)
    .map(([reason, count]) => `${count} ${reason}`)
    .sort(codePointOrder);
  return `0/${total} nodes are available: ${parts.join(', ')}.`;
}

const priorityOf = (pod: KubeObject) => (pod.spec as { priority?: number } | undefined)?.priority ?? 0;
const fullName = (pod: KubeObject) => `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;

/** The scheduling queue's order: higher priority first; the same priority by namespace and name, to stay deterministic. */
export const queueOrder = (a: KubeObject, b: KubeObject) =>
  priorityOf(b) - priorityOf(a) || codePointOrder(fullName(a), fullName(b));

/** Puts a pod on a node of the simulation: it takes its requests, one pod slot and a place for anti-affinity. */
export function occupy(node: NodeState, pod: KubeObject): void {
  addAmounts(node.requested, podRequests(pod));
  node.podCount += 1;
  node.pods.push({ namespace: pod.metadata?.namespace ?? '', labels: pod.metadata?.labels });
}

/**
 * Places pods one after another as the scheduler's filters would (ADR 0123: filters only, no scoring): each goes on
 * the first node by name that passes every filter, and takes its share of it before the next pod is tried. A pod
 * no node takes gets the scheduler's message, counting each node under the reasons it gave.
 */
export function placePods(
  pods: readonly KubeObject[],
  nodes: NodeState[],
  namespaceLabels: NamespaceLabels,
): Placement[] {
  const byName = [...nodes].sort((a, b) => codePointOrder(a.name, b.name));
  return pods.map((pod) => {
    const needs = podNeeds(pod, podRequests(pod), byName, namespaceLabels);
    const histogram: Record<string, number> = {};
    for (const node of byName) {
      const refusals = whyNot(needs, node);
      if (refusals.length === 0) {
        occupy(node, pod);
        return { node: node.name };
      }
      for (const reason of refusals) histogram[reason] = (histogram[reason] ?? 0) + 1;
    }
    return { message: schedulerMessage(byName.length, histogram), reasons: histogram };
  });
}
