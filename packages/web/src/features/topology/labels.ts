import type { TopologyNode } from './graph.ts';

/**
 * How much of its text a node shows at the zoom (ADR 0057): everything close up; further out one line, the name
 * (and a group's pod count) drawn larger so it stays readable on screen and cut with an ellipsis; furthest out
 * the count first, so that it is what remains when the name is cut. Labels shorten, they never vanish.
 */
export type Detail = 'full' | 'short' | 'counts';
export type CompactDetail = Exclude<Detail, 'full'>;

export const detailAt = (zoom: number): Detail => (zoom >= 0.6 ? 'full' : zoom >= 0.3 ? 'short' : 'counts');

/** Font sizes in graph units: 24 is 7-14 px on screen between zoom 0.3 and 0.6; 36, as tall as a box allows, is 9 px at 0.25. */
export const compactFont: Record<CompactDetail, number> = { short: 24, counts: 36 };

export const counted = (n: unknown, noun: string) => `${String(n)} ${noun}${n === 1 ? '' : 's'}`;

/** The one line a node keeps when zoomed out: `checkout · 40` a little out, `40 checkout` far out. */
export function compactLabel(node: TopologyNode, detail: CompactDetail): string {
  if (node.kind === 'Namespace' && node.data.pods !== undefined)
    return detail === 'short'
      ? `${node.name} · ${counted(node.data.pods, 'pod')}`
      : `${String(node.data.pods)} ${node.name}`;
  if (node.kind !== 'PodGroup') return node.name;
  const count = Number(node.data.count);
  const name = node.name.replace(/ pods$/, '');
  return detail === 'short' ? `${name} · ${count}` : `${count} ${name}`;
}
