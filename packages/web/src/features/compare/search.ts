/** The Compare pages' question, in the URL so a link keeps it (docs/compare.md). */
export interface CompareSearch {
  kind?: string;
  /** `<namespace>/<name>`, `_/<name>` for a cluster-scoped object. */
  left?: string;
  right?: string;
  /** A past moment a side is read as of (time travel). */
  leftAt?: string;
  rightAt?: string;
  /** Through the hub: the clusters the sides are in. */
  leftCluster?: string;
  rightCluster?: string;
}

const text = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

export function compareSearch(search: Record<string, unknown>): CompareSearch {
  const keys = ['kind', 'left', 'right', 'leftAt', 'rightAt', 'leftCluster', 'rightCluster'] as const;
  return Object.fromEntries(keys.map((key) => [key, text(search[key])]).filter(([, value]) => value));
}

/** Whether the search names both sides, so the comparison can be asked. */
export const complete = (search: CompareSearch, clusters: boolean) =>
  Boolean(search.kind && search.left?.includes('/') && search.right?.includes('/')) &&
  (!clusters || Boolean(search.leftCluster && search.rightCluster));

/** The compare route's query for a search: the agent's sides, and through the hub each side's cluster too. */
export function comparisonQuery(search: CompareSearch) {
  return {
    kind: search.kind ?? '',
    left: search.left ?? '',
    right: search.right ?? '',
    ...(search.leftAt ? { leftAt: search.leftAt } : {}),
    ...(search.rightAt ? { rightAt: search.rightAt } : {}),
  };
}
