import type { KubeObject } from '@binnacle/common';
import type { NodeState, Taint } from './filters.ts';
import { occupy } from './placement.ts';
import { allocatable } from './requests.ts';

/** Pods that have finished hold no resources: the scheduler counts only the others bound to a node. */
export const finished = (pod: KubeObject) =>
  pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
export const nodeNameOf = (pod: KubeObject) => (pod.spec as { nodeName?: string } | undefined)?.nodeName;

/**
 * Every node as the simulation starts from it: the nodes being drained count as cordoned, and the pods the drain
 * evicts are gone (their replacements are what gets placed).
 */
export function nodeStates(
  nodes: readonly KubeObject[],
  pods: readonly KubeObject[],
  draining: ReadonlySet<string>,
  evicted: ReadonlySet<KubeObject>,
): NodeState[] {
  const states = new Map<string, NodeState>();
  for (const node of nodes) {
    const name = node.metadata?.name ?? '';
    const spec = node.spec as { unschedulable?: boolean; taints?: Taint[] } | undefined;
    states.set(name, {
      name,
      labels: node.metadata?.labels ?? {},
      taints: spec?.taints ?? [],
      unschedulable: spec?.unschedulable === true || draining.has(name),
      allocatable: allocatable(node),
      requested: new Map(),
      podCount: 0,
      pods: [],
    });
  }
  for (const pod of pods) {
    const state = states.get(nodeNameOf(pod) ?? '');
    if (state && !finished(pod) && !evicted.has(pod)) occupy(state, pod);
  }
  return [...states.values()];
}
