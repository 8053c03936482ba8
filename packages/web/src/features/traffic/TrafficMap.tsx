import { useMemo } from 'react';
import { Loading } from '../../ui/states.tsx';
import { type ShownGraph, shownGraph } from '../topology/graph.ts';
import { type LayoutResult, nodeHeight, nodeWidth } from '../topology/layout.ts';
import { TopologyCanvas } from '../topology/TopologyCanvas.tsx';
import { trafficColor } from '../topology/traffic-edge.ts';
import { usePlacedLayout } from '../topology/use-placed-layout.ts';
import { type FlowPair, trafficTopology } from './flows.ts';

/** Edges go around the boxes, with room kept for a label (`0.03 req/s · 33% 5xx · 1 dropped`) on each. */
const layoutOptions = { layerGap: 24, routed: { labelWidth: 124, labelHeight: 18 } };

/**
 * Until the worker has placed a new end, the graph as far as the layout goes: a pair that just arrived is
 * drawn once its ends have a place, never piled up in a corner.
 */
function placedPart(graph: ShownGraph, layout: LayoutResult): ShownGraph {
  const placed = graph.nodes.filter((n) => layout.positions[n.id]);
  if (placed.length === graph.nodes.length) return graph;
  const ids = new Set(placed.map((n) => n.id));
  return {
    ...graph,
    nodes: placed,
    edges: graph.edges.filter((e) => ids.has(e.source) && ids.has(e.target)),
  };
}

/**
 * Who talks to whom: each end a box (linking to its object), each pair an arrow from client to server, its width
 * the pair's volume, its colour what went wrong, its label the rate. Laid out left to right, clients first.
 */
export function TrafficMap({
  pairs,
  scope,
  selected,
  onSelect,
}: {
  pairs: FlowPair[];
  /** What the pairs are of (namespace, window): a map of another scope is never shown for this one. */
  scope: string;
  selected?: string;
  onSelect: (id: string) => void;
}) {
  const topology = useMemo(() => trafficTopology(pairs), [pairs]);
  const graph = useMemo(() => shownGraph(topology, { hiddenKinds: [], health: [] }, 'none'), [topology]);
  const layout = usePlacedLayout(graph, scope, layoutOptions);
  if (!layout) return <Loading what="the map" />;
  const dark = document.documentElement.classList.contains('dark');
  return (
    // As tall as the graph is for its width, within bounds: a map of a few pairs leaves no empty band.
    <div style={{ width: '100%', aspectRatio: aspectOf(layout), minHeight: '14rem', maxHeight: '34rem' }}>
      {/* A new layout mounts a new canvas, which fits its view to it. */}
      <TopologyCanvas
        key={`${scope}#${layout.id}`}
        topology={topology}
        graph={placedPart(graph, layout)}
        layout={layout}
        dark={dark}
        selected={selected}
        onEdgeClick={onSelect}
      />
    </div>
  );
}

/** Width / height of the laid-out graph with room around it for the view's margin and the zoom buttons. */
function aspectOf(layout: LayoutResult): string {
  const at = Object.values(layout.positions);
  const width = Math.max(0, ...at.map((p) => p.x)) + nodeWidth;
  const height = Math.max(0, ...at.map((p) => p.y)) + nodeHeight;
  return `${width + 160} / ${height + 120}`;
}

/** What the lines say, in words beside their look. */
export function MapLegend({ volume }: { volume: 'bytes' | 'flows' }) {
  const line = (color: string, dashed = false) => (
    <svg aria-hidden="true" width="28" height="8" className="shrink-0">
      <line
        x1="0"
        y1="4"
        x2="28"
        y2="4"
        stroke={color}
        strokeWidth="3"
        strokeDasharray={dashed ? '6 4' : undefined}
      />
    </svg>
  );
  return (
    <ul
      aria-label="Legend"
      className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-700 dark:text-slate-300"
    >
      <li className="flex items-center gap-1.5">{line(trafficColor.ok)}forwarded</li>
      <li className="flex items-center gap-1.5">{line(trafficColor.errors)}HTTP 5xx answers</li>
      <li className="flex items-center gap-1.5">{line(trafficColor.dropped, true)}dropped or failed</li>
      <li>line width: {volume === 'bytes' ? 'bytes' : 'flows'} in the window</li>
      <li>click a line or a row to pick out the pair</li>
    </ul>
  );
}
