import type { TableWindowPatch as WindowPatch } from '@binnacle/common/tables';
import type { Answer } from '../../api/client.ts';

/** A window of a kind's table as the agent answers it (GET /api/tables/{kind} and the stream's `window`). */
export type TableWindow = Answer<'/api/tables/{kind}'>;
export type TableRow = TableWindow['rows'][number];

/** A window with a patch applied: changed rows replaced, the order taken when given, totals updated. */
export function applyPatch(window: TableWindow, patch: WindowPatch): TableWindow {
  const byUid = new Map(window.rows.map((row) => [row.uid, row]));
  for (const uid of patch.removed ?? []) byUid.delete(uid);
  for (const row of patch.rows ?? []) byUid.set(row.uid, row);
  const order = patch.order ?? window.rows.map((row) => row.uid);
  return {
    ...window,
    rows: order.flatMap((uid) => byUid.get(uid) ?? []),
    total: patch.total ?? window.total,
    statuses: patch.statuses ?? window.statuses,
  };
}

export interface TableQuery {
  namespace?: string;
  labelSelector?: string;
  filter?: string;
  status?: string;
  sort?: string;
  order?: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** Which table a window belongs to: scrolling changes only the offset, so the rows shown stay meanwhile. */
export const viewOf = (kind: string, query: Omit<TableQuery, 'offset' | 'limit'>) =>
  JSON.stringify([kind, query]);
