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
  /** A past moment (RFC 3339): the table as it was then, asked once (time travel). */
  at?: string;
  offset: number;
  limit: number;
}

/** Which table a window belongs to: scrolling changes only the offset, so the rows shown stay meanwhile. */
export const viewOf = (kind: string, query: Omit<TableQuery, 'offset' | 'limit'>) =>
  JSON.stringify([kind, query]);

/** Rows asked of the agent at a time, the most it serves: scrolling within them opens no new stream. */
export const windowRows = 1000;
/** A new window is asked once the rows in view come this close to an edge of the one asked, before they reach it. */
const windowMargin = 250;

/**
 * The window to ask for next when rows `first` to `last` (exclusive) of `total` are in view and the one asked
 * starts at `offset`: none while they are well inside it. Near an edge, the next one is asked `now`, while the
 * window asked still covers the view (its rows stay on screen until the next arrives), and reaches ahead in the
 * direction the view moves, keeping `windowMargin` rows behind it. A view beyond the window (a scrollbar dragged
 * far) gets one centred on it, asked once the view settles (`now` false).
 */
export function nextWindow(
  offset: number,
  first: number,
  last: number,
  total: number,
): { offset: number; now: boolean } | undefined {
  const nearStart = offset > 0 && first < offset + windowMargin;
  const nearEnd = last > offset + windowRows - windowMargin && offset + windowRows < total;
  if (!nearStart && !nearEnd) return undefined;
  const covered = first >= offset && last <= offset + windowRows;
  const next = !covered
    ? Math.floor((first + last - windowRows) / 2)
    : nearEnd
      ? first - windowMargin
      : last + windowMargin - windowRows;
  const clamped = Math.max(0, next);
  return clamped === offset ? undefined : { offset: clamped, now: covered };
}
