import { type Edge, MarkerType, type Node } from '@xyflow/react';
import { openedObject, type ShownGraph, type Topology } from './graph.ts';
import { frameTitleHeight, type LayoutResult, nodeHeight, nodeWidth } from './layout.ts';
import type { GroupData, ResourceData } from './TopologyNodes.tsx';
import {
  portsOf,
  type TrafficCounts,
  trafficColor,
  trafficLabel,
  trafficState,
  trafficWidth,
  volume,
} from './traffic-edge.ts';

/** The shown graph as React Flow's nodes and edges, at the positions the layout worker found. */
function podsByFrame(graph: ShownGraph): Map<string, { pods: number; failing: number }> {
  const frames = new Map<string, { pods: number; failing: number }>();
  for (const node of graph.nodes) {
    const frame = graph.groupOf.get(node.id);
    const podCount = node.kind === 'PodGroup' || (node.kind === 'KindGroup' && node.data.of === 'Pod');
    if (!frame || (node.kind !== 'Pod' && !podCount)) continue;
    const sum = frames.get(frame) ?? { pods: 0, failing: 0 };
    sum.pods += node.kind === 'Pod' ? 1 : Number(node.data.count ?? 0);
    sum.failing +=
      node.kind === 'Pod' ? Number(node.status === 'unhealthy') : Number(node.data.unhealthy ?? 0);
    frames.set(frame, sum);
  }
  return frames;
}

/** `moment`: the past moment drawn, which the nodes' links keep. */
export function flowNodes(
  topology: Topology,
  graph: ShownGraph,
  layout: LayoutResult,
  moment?: string,
): Node[] {
  const at = (id: string) => layout.positions[id] ?? { x: 0, y: 0 };
  const pods = podsByFrame(graph);
  const room = frameTitleHeight(graph.nodes.length);
  const groups: Node<GroupData>[] = [...graph.groups].map(([id, title]) => ({
    id,
    type: 'frame',
    position: at(id),
    data: {
      title,
      pods: pods.get(id)?.pods ?? 0,
      failing: pods.get(id)?.failing ?? 0,
      room,
      ...(topology.levelOfDetail && id.startsWith('ns:') && id !== 'ns:' ? { opens: id.slice(3) } : {}),
    },
    style: { width: at(id).width, height: at(id).height },
    selectable: false,
    focusable: false,
  }));
  const members: Node<ResourceData>[] = graph.nodes.map((node) => {
    const group = graph.groupOf.get(node.id);
    return {
      id: node.id,
      type: 'resource',
      position: at(node.id),
      width: nodeWidth,
      height: nodeHeight,
      data: {
        node,
        to: openedObject(node, topology),
        ...(group || !node.namespace ? {} : { namespace: node.namespace }),
        ...(moment ? { at: moment } : {}),
      },
      ...(group ? { parentId: group } : {}),
      ariaLabel: `${node.kind} ${node.name}, ${node.status}`,
    };
  });
  return [...groups, ...members];
}

export const noEdges: Edge[] = [];

export function flowEdges(
  graph: ShownGraph,
  labelled: boolean,
  selected?: string,
  routes?: LayoutResult['routes'],
): Edge[] {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const named = (id: string) => `${byId.get(id)?.kind} ${byId.get(id)?.name}`;
  const traffic = graph.edges.flatMap((e) =>
    e.type === 'traffic' ? [e.data as unknown as TrafficCounts] : [],
  );
  const busiest = Math.max(0, ...traffic.map(volume));
  return graph.edges.map((e): Edge => {
    const route = routes?.[e.id];
    const routed = route ? { type: 'routed', data: { route } } : {};
    const faded = selected !== undefined && selected !== e.id ? { opacity: 0.25 } : {};
    const arrow = { type: MarkerType.ArrowClosed, width: 16, height: 16 };
    if (e.type !== 'traffic')
      return {
        id: e.id,
        source: e.source,
        target: e.target,
        ...routed,
        ariaLabel: `${named(e.source)} ${e.type} ${named(e.target)}`,
        label: labelled && e.type !== 'manages' ? e.type : undefined,
        markerEnd: arrow,
        style: { ...(e.type === 'manages' ? {} : { strokeDasharray: '4 3' }), ...faded },
      };
    const counts = e.data as unknown as TrafficCounts;
    const state = trafficState(counts);
    const color = trafficColor[state];
    const label = trafficLabel(counts);
    const chosen = selected === e.id;
    return {
      id: e.id,
      source: e.source,
      target: e.target,
      ...routed,
      ariaLabel: `${named(e.source)} to ${named(e.target)}, ${portsOf(counts)}: ${label}`,
      label: labelled || chosen ? label : undefined,
      labelStyle: { fontSize: 11, fontWeight: chosen ? 600 : 500 },
      labelBgPadding: [4, 2],
      labelBgBorderRadius: 4,
      // Sized in pixels, not stroke widths: a busy pair's arrowhead stays an arrowhead.
      markerEnd: { ...arrow, color, width: 22, height: 22, markerUnits: 'userSpaceOnUse' },
      zIndex: chosen ? 1 : 0,
      style: {
        stroke: color,
        strokeWidth: trafficWidth(counts, busiest) + (chosen ? 2 : 0),
        // Dropped traffic never arrived: drawn broken, so it reads without the colour too.
        ...(state === 'dropped' ? { strokeDasharray: '6 4' } : {}),
        ...faded,
      },
    };
  });
}
