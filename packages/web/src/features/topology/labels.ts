import { bareTopologyKinds, integrationOf, integrations } from '@binnacle/common';
import type { TopologyNode } from './graph.ts';

/** How many of the kinds the topology draws share each Kind's name (Knative's `Service`, two `Backup`s). */
const sharing = new Map<string, number>();
for (const kind of [
  ...Object.keys(bareTopologyKinds),
  ...integrations.flatMap((i) => i.kinds.map((k) => k.kind)),
])
  sharing.set(kind, (sharing.get(kind) ?? 0) + 1);

/** A node's kind as it is labelled: a name other kinds share says whose it is (`Service · Knative Serving`). */
export function kindLabel(node: Pick<TopologyNode, 'kind' | 'group'>): string {
  if (!node.group || (sharing.get(node.kind) ?? 0) < 2) return node.kind;
  return `${node.kind} · ${integrationOf(node.group, node.kind)?.title ?? node.group}`;
}

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

/**
 * The one line a node keeps when zoomed out, as its name and its count: `checkout · 40` a little out, `40
 * checkout` far out. The canvas cuts the name with an ellipsis and never the count.
 */
export function compactLabel(node: TopologyNode, detail: CompactDetail): { name: string; count?: string } {
  const count =
    node.kind === 'PodGroup' || node.kind === 'KindGroup'
      ? String(node.data.count)
      : node.kind === 'Namespace' && node.data.pods !== undefined
        ? detail === 'short'
          ? counted(node.data.pods, 'pod')
          : String(node.data.pods)
        : undefined;
  const name =
    node.kind === 'PodGroup'
      ? node.name.replace(/ pods$/, '')
      : node.kind === 'KindGroup'
        ? String(node.data.of)
        : node.name;
  return count === undefined ? { name } : { name, count };
}
