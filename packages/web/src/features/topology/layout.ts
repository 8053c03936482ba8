import type { ShownGraph } from './graph.ts';

export const nodeWidth = 190;
export const nodeHeight = 46;

/**
 * Room above a group frame's members for its title. The bigger the graph, the farther out it fits the view and
 * the larger the title must be drawn to stay readable there (the canvas scales it against the zoom), so the room
 * grows with the square root of the node count, as the fitted zoom shrinks.
 */
export const frameTitleHeight = (nodes: number) =>
  Math.round(Math.min(240, 36 * Math.max(1, Math.sqrt(nodes / 60))));
/** The largest a frame's title is drawn, in graph units (the canvas caps it to the room above the members). */
export const frameTitleFont = (titleHeight: number) => titleHeight * 0.75;

/** The width a title needs at its largest (about 0.8 em a bold character, with room to spare), at most three boxes' worth. */
const titleWidth = (title: string, titleHeight: number) =>
  Math.min(3 * nodeWidth, Math.ceil(title.length * 0.8 * frameTitleFont(titleHeight)) + 32);

export interface LayoutRequest {
  id: number;
  nodeWidth: number;
  nodeHeight: number;
  /** Room between the columns of a left-to-right layout (default 48 px). */
  layerGap?: number;
  /** Room above a group's members for its title. */
  titleHeight: number;
  /** By group id, the width its title needs: a frame is never narrower, so far out its title is not cut. */
  groupWidths: Record<string, number>;
  /**
   * Edges routed by ELK around the boxes, each with room kept for a label this size (ungrouped graphs only): a
   * straight line from box to box would cross the boxes between them.
   */
  routed?: { labelWidth: number; labelHeight: number };
  nodes: { id: string; group?: string }[];
  edges: { id: string; source: string; target: string }[];
}

export interface Point {
  x: number;
  y: number;
}

/** An edge's way from box to box, and the centre of the room kept for its label. */
export interface Route {
  points: Point[];
  label?: Point;
}

/** Positions by node id: groups absolute (with their size), their members relative to the group. */
export interface LayoutResult {
  id: number;
  positions: Record<string, { x: number; y: number; width?: number; height?: number }>;
  /** By edge id, when the request asked for routed edges. */
  routes?: Record<string, Route>;
  error?: string;
}

let worker: Worker | undefined;
let next = 0;
const waiting = new Map<number, (result: LayoutResult) => void>();

/** Lays the graph out with ELK in a Web Worker, so a big graph never blocks the page while it is placed. */
export function layout(
  graph: ShownGraph,
  options: Pick<LayoutRequest, 'layerGap' | 'routed'> = {},
): Promise<LayoutResult> {
  if (!worker) {
    worker = new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (message: MessageEvent<LayoutResult>) => {
      waiting.get(message.data.id)?.(message.data);
      waiting.delete(message.data.id);
    };
  }
  const id = ++next;
  const titleHeight = frameTitleHeight(graph.nodes.length);
  const request: LayoutRequest = {
    id,
    nodeWidth,
    nodeHeight,
    titleHeight,
    groupWidths: Object.fromEntries(
      [...graph.groups].map(([group, title]) => [group, titleWidth(title, titleHeight)]),
    ),
    ...options,
    nodes: graph.nodes.map((n) => ({ id: n.id, group: graph.groupOf.get(n.id) })),
    edges: graph.edges.map((e) => ({ id: e.id, source: e.source, target: e.target })),
  };
  const placed = new Promise<LayoutResult>((resolve) => waiting.set(id, resolve));
  worker.postMessage(request);
  return placed;
}
