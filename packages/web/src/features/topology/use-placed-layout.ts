import { useEffect, useState } from 'react';
import { layoutKey, type ShownGraph } from './graph.ts';
import { type LayoutRequest, type LayoutResult, layout } from './layout.ts';

/**
 * The graph's layout once the worker has placed it, for the scope asked for (a namespace, expanded groups…): a
 * layout of another scope is never answered for this one. Statuses and counts change often and move nothing, so
 * only a change of nodes, groups or edges is laid out again.
 */
export function usePlacedLayout(
  graph: ShownGraph | undefined,
  scope: string,
  options: Pick<LayoutRequest, 'layerGap' | 'routed'> = {},
): LayoutResult | undefined {
  const key = graph ? layoutKey(graph) : '';
  const [placed, setPlaced] = useState<{ key: string; scope: string; result: LayoutResult }>();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the graph's structure.
  useEffect(() => {
    if (!graph || placed?.key === key) return;
    let current = true;
    void layout(graph, options).then((result) => current && setPlaced({ key, scope, result }));
    return () => {
      current = false;
    };
  }, [key]);
  return placed?.scope === scope ? placed.result : undefined;
}
