import type { Impersonation } from '../../kube/client.ts';
import type { Topology, TopologyNode } from './model.ts';

interface PairEnd {
  id: string;
  kind: string;
  name: string;
  namespace?: string;
}

/** A source → destination pair of observed traffic, as the traffic feature adds its flows up. */
export interface TrafficPair {
  source: PairEnd;
  destination: PairEnd;
  flows: number;
  /** TCP connections opened (SYN without ACK). */
  connections: number;
  /** L7 requests (HTTP request records). */
  requests: number;
  /** L7 responses with a 5xx status. */
  errors: number;
  /** Requests per second over the window. */
  requestRate: number;
  /** errors / requests (0 without requests). */
  errorRate: number;
  /** Bytes, where the source measures them (Hubble does not: absent). */
  bytes?: number;
  verdicts: Record<string, number | undefined>;
  /** Protocol and destination port seen between them, with the flow count of each and, where known, the dropped. */
  ports?: { protocol: string; port?: number; flows: number; dropped?: number }[];
}

/** Where the pairs came from: the source, the window's bounds, and whether the busiest pairs were kept. */
export interface PairsWindow {
  source: string;
  from: string;
  to: string;
  truncated: boolean;
}

/**
 * Where the traffic view and the policy impact get their pairs: the caller's flows of a window (default: the
 * traffic page's), or why there are none.
 */
export type TrafficPairs = (
  caller: Impersonation | undefined,
  namespaces: string[] | undefined,
  windowMs?: number,
) => Promise<{ pairs: TrafficPair[]; window: PairsWindow } | { reason: string }>;

const endNode = (end: PairEnd): TopologyNode => ({
  id: end.id,
  kind: end.kind,
  ...(end.namespace ? { namespace: end.namespace } : {}),
  name: end.name,
  status: 'unknown',
  data: {},
});

/**
 * The traffic view: the graph with a `traffic` edge per observed pair, carrying its counts in `data`. Ends the
 * graph does not draw (the outside world, nodes, a hidden peer, workloads of other namespaces) join it as nodes.
 */
export function withTrafficEdges(topology: Topology, pairs: readonly TrafficPair[]): Topology {
  const nodes = new Map(topology.nodes.map((n) => [n.id, n]));
  const edges = [...topology.edges];
  for (const pair of pairs) {
    for (const end of [pair.source, pair.destination])
      if (!nodes.has(end.id)) nodes.set(end.id, endNode(end));
    const { source, destination, ...data } = pair;
    edges.push({
      id: `${source.id}-traffic-${destination.id}`,
      source: source.id,
      target: destination.id,
      type: 'traffic',
      data,
    });
  }
  return { ...topology, nodes: [...nodes.values()], edges };
}
