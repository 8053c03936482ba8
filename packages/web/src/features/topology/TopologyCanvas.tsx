import '@xyflow/react/dist/style.css';
import {
  Background,
  Controls,
  type Edge,
  Handle,
  MarkerType,
  MiniMap,
  type Node,
  type NodeProps,
  Position,
  ReactFlow,
  useStore,
} from '@xyflow/react';
import { memo, useEffect, useMemo, useState } from 'react';
import { basePath } from '../../api/client.ts';
import { router } from '../../app/router.tsx';
import { PlainLink } from '../../ui/PlainLink.tsx';
import { healthColor, openedObject, type ShownGraph, type Topology, type TopologyNode } from './graph.ts';
import { type CompactDetail, compactFont, compactLabel, counted, type Detail, detailAt } from './labels.ts';
import { frameTitleFont, frameTitleHeight, type LayoutResult, nodeHeight, nodeWidth } from './layout.ts';
import { RoutedEdge } from './RoutedEdge.tsx';
import type { TopologySearch } from './TopologyPage.tsx';
import {
  portsOf,
  type TrafficCounts,
  trafficColor,
  trafficLabel,
  trafficState,
  trafficWidth,
  volume,
} from './traffic-edge.ts';

type ResourceData = {
  node: TopologyNode;
  to?: { kind: string; namespace: string; name: string };
  /** Shown beside the kind when no group frame names the namespace. */
  namespace?: string;
};
type GroupData = {
  title: string;
  /** Pods in the frame and how many of them fail (a pod group counts its pods). */
  pods: number;
  failing: number;
  /** Room the layout kept above the members for the title. */
  room: number;
  /** The namespace whose full graph the title opens, when the whole cluster is drawn reduced. */
  opens?: string;
};

const withExpanded = (expand: string | undefined, id: string) =>
  [...new Set([...(expand?.split(',') ?? []), id])].filter(Boolean).join(',');

/** Edges attach to handles; nobody connects nodes here, so they are not shown. */
const hiddenHandle = { opacity: 0 };

const detailOf = (s: { transform: [number, number, number] }): Detail => detailAt(s.transform[2]);

const objectHref = (to: { kind: string; namespace: string; name: string }) =>
  `${basePath}/resources/${[to.kind, to.namespace, to.name].map(encodeURIComponent).join('/')}`;

type AuditCounts = { warning: number; danger: number };
type NodeCertificate = { secret: string; severity: string; daysLeft: number | null };

/** The audit's findings and the served certificate's expiry, as the agent puts them in the node's data. */
function FindingBadges({ data }: { data: Record<string, unknown> }) {
  const audit = data.audit as AuditCounts | undefined;
  const certificate = data.certificate as NodeCertificate | undefined;
  const urgent = certificate && certificate.severity !== 'ok';
  if (!audit && !urgent) return null;
  const days = certificate?.daysLeft;
  return (
    <span className="ml-auto flex gap-1 normal-case tracking-normal">
      {audit && (
        <span
          title={`audit: ${audit.danger} danger, ${audit.warning} warning`}
          className={`rounded px-1 font-medium ${
            audit.danger > 0
              ? 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200'
              : 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200'
          }`}
        >
          {audit.danger > 0 ? `${audit.danger} danger` : `${audit.warning} warn`}
        </span>
      )}
      {urgent && (
        <span
          title={`certificate in ${certificate.secret}: ${certificate.severity}`}
          className={`rounded px-1 font-medium ${
            certificate.severity === 'warning'
              ? 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200'
              : 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200'
          }`}
        >
          {certificate.severity === 'invalid'
            ? 'cert unreadable'
            : days !== null && days !== undefined && days < 0
              ? 'cert expired'
              : `cert ${String(days)}d`}
        </span>
      )}
    </span>
  );
}

/** The name cut with an ellipsis, the count whole: after the name a little out, before it far out. */
function CompactText({ node, detail }: { node: TopologyNode; detail: CompactDetail }) {
  const { name, count } = compactLabel(node, detail);
  const shown = <span className="truncate">{name}</span>;
  if (count === undefined) return shown;
  return detail === 'short' ? (
    <>
      {shown}
      <span className="shrink-0 whitespace-pre"> · {count}</span>
    </>
  ) : (
    <>
      <span className="shrink-0 whitespace-pre">{count} </span>
      {shown}
    </>
  );
}

const openNamespace = (name: string) =>
  void router.navigate({ to: '/topology', search: (was: TopologySearch) => ({ ...was, namespace: name }) });

const ResourceNode = memo(function ResourceNode({ data }: NodeProps<Node<ResourceData>>) {
  const detail = useStore(detailOf);
  const { node, to, namespace } = data;
  const color = healthColor[node.status];
  // A cluster too big to draw whole shows one node per namespace or per kind in each, counting what is in it;
  // either opens that namespace's graph.
  const overview = node.kind === 'Namespace' && node.data.objects !== undefined;
  const opens = node.kind === 'KindGroup' ? node.namespace : overview ? node.name : undefined;
  const openLabel =
    node.kind === 'KindGroup'
      ? `Open the topology of namespace ${opens} for its ${node.name}`
      : `Open the topology of namespace ${node.name}`;
  if (detail !== 'full') {
    return (
      <div
        className="flex h-full w-full items-center rounded-md border border-slate-300 bg-white px-2 text-left shadow-sm dark:border-slate-600 dark:bg-slate-900"
        style={{ borderLeft: `6px solid ${color}` }}
        title={`${node.kind} ${node.namespace ? `${node.namespace}/` : ''}${node.name}: ${node.status}`}
      >
        <Handle type="target" position={Position.Left} isConnectable={false} style={hiddenHandle} />
        {opens !== undefined ? (
          <button
            type="button"
            className="flex min-w-0 font-semibold leading-tight hover:underline"
            style={{ fontSize: compactFont[detail] }}
            aria-label={openLabel}
            onClick={() => openNamespace(opens)}
          >
            <CompactText node={node} detail={detail} />
          </button>
        ) : (
          <span
            className="flex min-w-0 font-semibold leading-tight"
            style={{ fontSize: compactFont[detail] }}
          >
            <CompactText node={node} detail={detail} />
          </span>
        )}
        <Handle type="source" position={Position.Right} isConnectable={false} style={hiddenHandle} />
      </div>
    );
  }
  return (
    <div
      className="flex h-full w-full flex-col justify-center rounded-md border border-slate-300 bg-white px-2 text-left text-xs shadow-sm dark:border-slate-600 dark:bg-slate-900"
      style={{ borderLeft: `4px solid ${color}` }}
    >
      <Handle type="target" position={Position.Left} isConnectable={false} style={hiddenHandle} />
      <span className="flex items-center gap-1 text-[10px] uppercase tracking-wide text-slate-600 dark:text-slate-400">
        {node.kind}
        {namespace ? ` · ${namespace}` : ''}
        {node.kind === 'PodGroup' ? ` · ${String(node.data.count)} pods` : ''}
        {overview ? ` · ${counted(node.data.objects, 'object')}, ${counted(node.data.pods, 'pod')}` : ''}
        {opens !== undefined && (
          <button
            type="button"
            className="ml-auto normal-case text-teal-800 hover:underline dark:text-teal-300"
            aria-label={openLabel}
            onClick={() => openNamespace(opens)}
          >
            open
          </button>
        )}
        {node.kind === 'PodGroup' && node.data.expandable === true && (
          <button
            type="button"
            className="ml-auto normal-case text-teal-800 hover:underline dark:text-teal-300"
            aria-label={`Show the ${String(node.data.count)} ${node.name} one by one`}
            onClick={() =>
              void router.navigate({
                to: '/topology',
                search: (was: TopologySearch) => ({ ...was, expand: withExpanded(was.expand, node.id) }),
              })
            }
          >
            show
          </button>
        )}
        {opens === undefined && node.kind !== 'PodGroup' && <FindingBadges data={node.data} />}
      </span>
      {to ? (
        // A plain link, not the router's: thousands of router links cost seconds to mount.
        <PlainLink
          href={objectHref(to)}
          go={() => router.navigate({ to: '/resources/$kind/$namespace/$name', params: to })}
          className="truncate font-medium text-slate-900 hover:underline dark:text-slate-100"
          aria-label={`${node.kind} ${node.name}`}
          title={`${node.kind} ${node.namespace ? `${node.namespace}/` : ''}${node.name}: ${node.status}`}
        >
          {node.name}
        </PlainLink>
      ) : (
        <span className="truncate font-medium">{node.name}</span>
      )}
      <Handle type="source" position={Position.Right} isConnectable={false} style={hiddenHandle} />
    </div>
  );
});

/** The zoom in steps of 1/40, so a frame's title is drawn again only when its size visibly changes. */
const steppedZoom = (s: { transform: [number, number, number] }) =>
  Math.max(1, Math.round(s.transform[2] * 40)) / 40;

function GroupNode({ data }: NodeProps<Node<GroupData>>) {
  // 13 px on screen whatever the zoom, as far as the room kept above the members allows.
  const size = Math.max(12, Math.min(13 / useStore(steppedZoom), frameTitleFont(data.room)));
  return (
    <div className="h-full w-full rounded-lg border border-dashed border-slate-400 bg-slate-50/60 dark:border-slate-600 dark:bg-slate-800/40">
      <span
        className="absolute left-3 top-1 max-w-[calc(100%-1.5rem)] truncate font-semibold text-slate-700 dark:text-slate-300"
        style={{ fontSize: size, lineHeight: 1.25 }}
      >
        {data.opens === undefined ? (
          data.title
        ) : (
          // The frame itself lets pointer events through to the pane (it is neither selectable nor draggable).
          <button
            type="button"
            className="nodrag nopan pointer-events-auto font-semibold hover:underline"
            aria-label={`Open the topology of ${data.title}`}
            onClick={() => openNamespace(data.opens as string)}
          >
            {data.title}
          </button>
        )}
        {data.pods > 0 && (
          <span className="font-normal">
            {' '}
            · {counted(data.pods, 'pod')}
            {data.failing > 0 && (
              <span className="text-red-700 dark:text-red-300"> · {data.failing} failing</span>
            )}
          </span>
        )}
      </span>
    </div>
  );
}

// Not React Flow's built-in `group` type, whose frame and selection styles would be drawn around ours.
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
}: {
  topology: Topology;
  graph: ShownGraph;
  layout: LayoutResult;
  dark: boolean;
  selected?: string;
  onEdgeClick?: (id: string) => void;
}) {
  const big = graph.nodes.length > bigGraph;
  // A big graph opens fitted to the view, which is far out: its first render already leaves the edges out.
  const [far, setFar] = useState(big);
  const nodes = useMemo(() => flowNodes(topology, graph, layout), [topology, graph, layout]);
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

function flowNodes(topology: Topology, graph: ShownGraph, layout: LayoutResult): Node[] {
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
      },
      ...(group ? { parentId: group } : {}),
      ariaLabel: `${node.kind} ${node.name}, ${node.status}`,
    };
  });
  return [...groups, ...members];
}

const noEdges: Edge[] = [];

function flowEdges(
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
