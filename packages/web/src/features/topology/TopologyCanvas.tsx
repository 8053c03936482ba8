import '@xyflow/react/dist/style.css';
import { Background, Controls, MiniMap, ReactFlow, useStore } from '@xyflow/react';
import { useEffect, useMemo, useState } from 'react';
import { flowEdges, flowNodes, noEdges } from './flow-elements.ts';
import type { ShownGraph, Topology } from './graph.ts';
import type { LayoutResult } from './layout.ts';
import { RoutedEdge } from './RoutedEdge.tsx';
import { detailOf, GroupNode, ResourceNode } from './TopologyNodes.tsx';

/** Above this many objects, the details that cost the most go while zoomed out: edges, their labels, the minimap. */
const bigGraph = 300;
/** Up to this many objects the graph fits the view whole: an overview would only hide a corner of it. */
const smallGraph = 12;

/** A few objects are not blown up to twice their size to fill the view. */
const fitWhole = { maxZoom: 1.25 };
/**
 * With the overview shown (bottom right, 200 × 150 px), the fitted graph keeps clear of the strip it sits in, so
 * it never covers the lowest objects.
 */
const fitBesideMinimap = {
  maxZoom: 1.25,
  padding: { top: 0.05, left: 0.05, right: 0.05, bottom: '180px' },
} as const;

/** Tells the canvas when the zoom crosses the level of detail (it has to sit inside React Flow to see it). */
function ZoomWatcher({ onFar }: { onFar: (far: boolean) => void }) {
  const far = useStore(detailOf) !== 'full';
  useEffect(() => onFar(far), [far, onFar]);
  return null;
}

// Not React Flow's built-in `group` type, whose frame and selection styles would be drawn around ours.
const nodeTypes = { resource: ResourceNode, frame: GroupNode };
const edgeTypes = { routed: RoutedEdge };

/**
 * The graph in React Flow, at the positions the layout worker found; only what is in view is rendered. `selected`
 * picks out one edge (the others fade); `onEdgeClick` is told which edge was clicked.
 */
export function TopologyCanvas({
  topology,
  graph,
  layout,
  dark,
  selected,
  onEdgeClick,
  at,
}: {
  topology: Topology;
  graph: ShownGraph;
  layout: LayoutResult;
  dark: boolean;
  selected?: string;
  onEdgeClick?: (id: string) => void;
  /** The past moment drawn (time travel), kept by the nodes' links. */
  at?: string;
}) {
  const big = graph.nodes.length > bigGraph;
  // A big graph opens fitted to the view, which is far out: its first render already leaves the edges out.
  const [far, setFar] = useState(big);
  const nodes = useMemo(() => flowNodes(topology, graph, layout, at), [topology, graph, layout, at]);
  const allEdges = useMemo(
    () => flowEdges(graph, !big, selected, layout.routes),
    [graph, big, selected, layout.routes],
  );
  const edges = big && far ? noEdges : allEdges;
  const minimap = !big && graph.nodes.length > smallGraph;
  return (
    <ReactFlow
      nodes={nodes}
      edges={edges}
      onEdgeClick={onEdgeClick && ((_event, edge) => onEdgeClick(edge.id))}
      nodeTypes={nodeTypes}
      edgeTypes={edgeTypes}
      colorMode={dark ? 'dark' : 'light'}
      nodesDraggable={false}
      nodesConnectable={false}
      edgesFocusable={false}
      onlyRenderVisibleElements
      fitView
      fitViewOptions={minimap ? fitBesideMinimap : fitWhole}
      minZoom={0.05}
      proOptions={{ hideAttribution: true }}
      ariaLabelConfig={{ 'node.a11yDescription.default': 'A cluster object. Tab to its link to open it.' }}
    >
      <ZoomWatcher onFar={setFar} />
      <Background gap={24} />
      <Controls showInteractive={false} fitViewOptions={minimap ? fitBesideMinimap : fitWhole} />
      {minimap && <MiniMap pannable zoomable ariaLabel="Overview of the graph" />}
    </ReactFlow>
  );
}

/** Each frame's pods (a pod group counts its own) and failing pods, as its title tells them. */
