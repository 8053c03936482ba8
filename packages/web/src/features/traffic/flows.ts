import type { Answer } from '../../api/client.ts';
import type { StreamEventOf } from '../../api/events.ts';
import type { Topology } from '../topology/graph.ts';

export type Sources = Answer<'/api/traffic/sources'>;
export type SourceName = Sources['sources'][number]['name'];
export type FlowsAnswer = Answer<'/api/traffic/flows'>;
export type FlowPair = Extract<FlowsAnswer, { available: true }>['pairs'][number];
export type Endpoint = FlowPair['source'];

/** The stream's `delta`: the pairs whose numbers changed, and those that left the window. */
export type FlowDelta = StreamEventOf<'/api/traffic/flows/stream', 'delta'>['data'];

/** The pairs after a delta: changed ones replaced in place, new ones added, the removed ones gone. */
export function applyDelta(pairs: readonly FlowPair[], delta: FlowDelta): FlowPair[] {
  const next = new Map(pairs.map((p) => [p.id, p]));
  for (const id of delta.removed) next.delete(id);
  for (const pair of delta.changed) next.set(pair.id, pair);
  return [...next.values()];
}

/**
 * The pairs as a graph the topology canvas draws: each end a node (named as the topology names them, so a
 * workload is the same node in both), each pair a `traffic` edge carrying its counts. Flows say nothing of
 * health: every node is `unknown`.
 */
export function trafficTopology(pairs: readonly FlowPair[]): Topology {
  const nodes = new Map<string, Topology['nodes'][number]>();
  for (const { source, destination } of pairs)
    for (const end of [source, destination])
      nodes.set(end.id, {
        id: end.id,
        kind: end.kind,
        name: end.name,
        ...(end.namespace ? { namespace: end.namespace } : {}),
        status: 'unknown',
        data: {},
      });
  const edges = pairs.map(({ source, destination, ...counts }) => ({
    id: counts.id,
    source: source.id,
    target: destination.id,
    type: 'traffic' as const,
    data: counts,
  }));
  return { nodes: [...nodes.values()], edges, warnings: [] };
}
