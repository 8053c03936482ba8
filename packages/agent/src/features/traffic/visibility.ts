import type { Endpoint, ResolvedFlow } from './model.ts';

/** What of the flows a caller may see: the namespaces shown (undefined: all) and whether Nodes are listable. */
export interface FlowView {
  namespaces?: readonly string[];
  nodesHidden: boolean;
  /** `?namespace=`: keep only flows with an end in these namespaces. */
  requested?: readonly string[];
}

export const hiddenEndpoint: Endpoint = { id: 'hidden', kind: 'Hidden', name: 'hidden' };

const visible = (end: Endpoint, view: FlowView): boolean => {
  if (end.kind === 'Node') return !view.nodesHidden;
  if (!end.namespace) return true;
  return view.namespaces === undefined || view.namespaces.includes(end.namespace);
};

/** An end the caller may see inside its namespaces: only such an end makes a flow the caller's business. */
const ownEnd = (end: Endpoint, view: FlowView, within = view.namespaces) =>
  end.namespace !== undefined && (within === undefined || within.includes(end.namespace));

/**
 * The flows as a caller may see them (ADR 0034): an end outside the caller's namespaces (or a Node, when it may
 * not list Nodes) becomes the one opaque `hidden` endpoint — no name, namespace or IP — so traffic between the
 * caller's workloads and the rest stays visible without naming the rest; hidden peers merge into one pair.
 * A flow with no end in the caller's (requested) namespaces is dropped.
 */
export function visibleFlows<T extends Pick<ResolvedFlow, 'source' | 'destination'>>(
  flows: readonly T[],
  view: FlowView,
): T[] {
  const kept: T[] = [];
  for (const flow of flows) {
    const { source, destination } = flow;
    // Flows between non-namespaced ends (nodes, the outside) are shown only to callers who see every namespace.
    if (view.namespaces !== undefined && !ownEnd(source, view) && !ownEnd(destination, view)) continue;
    if (view.requested && !ownEnd(source, view, view.requested) && !ownEnd(destination, view, view.requested))
      continue;
    kept.push({
      ...flow,
      source: visible(source, view) ? source : hiddenEndpoint,
      destination: visible(destination, view) ? destination : hiddenEndpoint,
    });
  }
  return kept;
}
