/**
 * The search parameters of the Helm pages, apart from the pages: the router validates them at start, while the
 * pages load with their route (a lazy chunk, ADR 0058).
 */
export const releaseTabs = ['resources', 'history', 'hooks', 'values', 'manifest', 'diff', 'notes'] as const;
export type ReleaseTab = (typeof releaseTabs)[number];
export interface ReleaseSearch {
  tab?: ReleaseTab;
  revision?: number;
  from?: number;
  to?: number;
}

export const chartViews = ['readme', 'values', 'schema'] as const;
export interface ChartSearch {
  version?: string;
  view?: (typeof chartViews)[number];
}

export const chartsTabs = ['sources', 'catalog'] as const;
export interface ChartsSearch {
  tab?: (typeof chartsTabs)[number];
  q?: string;
}
