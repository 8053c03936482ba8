import {
  addResourceAmounts,
  type KubeObject,
  podRequestAmounts,
  type ResourceAmounts,
  resourceAmounts,
} from '@binnacle/common';

/** Resource amounts by resource name, in thousandths of the base unit (millicores, millibytes) so sums stay exact. */
export type Amounts = ResourceAmounts;

/**
 * The requests of pods already worked out: the cache replaces an object on every change and never edits one, so a
 * pod object's requests stay what they were, and a fit over a large cluster does not parse every pod again.
 */
const known = new WeakMap<KubeObject, ReadonlyMap<string, number>>();

/** What the scheduler reserves for a pod (`podRequestAmounts`), worked out once per cached object. */
export function podRequests(pod: KubeObject): ReadonlyMap<string, number> {
  let requests = known.get(pod);
  if (!requests) {
    requests = podRequestAmounts(pod);
    known.set(pod, requests);
  }
  return requests;
}

/** What a node offers pods (`status.allocatable`; `pods` is its pod count, counted apart). */
export function allocatable(node: KubeObject): Amounts {
  return resourceAmounts((node.status as { allocatable?: Record<string, string> } | undefined)?.allocatable);
}

export { addResourceAmounts as addAmounts };
