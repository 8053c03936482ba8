import type { Topology, TopologyEdge, TopologyNode } from '../../scope/topology/model.ts';

export interface Neighborhood {
  center: TopologyNode;
  /** The nodes within `hops` edges of the center (the center first), nearest first, at most `maxNodes`. */
  nodes: (TopologyNode & { distance: number })[];
  /** The edges between the nodes kept. */
  edges: TopologyEdge[];
  /** Nodes within reach that `maxNodes` left out. */
  omitted: number;
}

/**
 * What an object connects to in the graph, in either direction (its owner and what it owns, what routes to it
 * and what it reads), breadth first up to `hops` edges away; undefined when the graph has no node `id`.
 */
export function neighborhood(
  topology: Topology,
  id: string,
  options: { hops: number; maxNodes: number },
): Neighborhood | undefined {
  const byId = new Map(topology.nodes.map((n) => [n.id, n]));
  const center = byId.get(id);
  if (!center) return undefined;
  const adjacent = new Map<string, string[]>();
  const link = (a: string, b: string) => adjacent.set(a, [...(adjacent.get(a) ?? []), b]);
  for (const edge of topology.edges) {
    link(edge.source, edge.target);
    link(edge.target, edge.source);
  }
  const distance = new Map([[id, 0]]);
  let frontier = [id];
  for (let hop = 1; hop <= options.hops; hop++) {
    const next: string[] = [];
    for (const node of frontier)
      for (const other of (adjacent.get(node) ?? []).sort())
        if (!distance.has(other) && byId.has(other)) {
          distance.set(other, hop);
          next.push(other);
        }
    frontier = next;
  }
  const reached = [...distance].map(([nodeId, hops]) => ({
    ...(byId.get(nodeId) as TopologyNode),
    distance: hops,
  }));
  const nodes = reached.slice(0, options.maxNodes);
  const kept = new Set(nodes.map((n) => n.id));
  return {
    center,
    nodes,
    edges: topology.edges.filter((e) => kept.has(e.source) && kept.has(e.target)),
    omitted: reached.length - nodes.length,
  };
}
