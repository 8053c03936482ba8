import type {
  StatusCount,
  TableCell,
  TableColumn,
  TableRow,
  TableWindowPatch as WindowPatch,
} from '@binnacle/common';
import { badRequest } from '@binnacle/common/server';
import type { IndexedRow, SortKey } from './rows.ts';

/** What a table request asks of the rows, after the namespaces and the label selector chose the objects. */
export interface WindowQuery {
  /** A plain, case-insensitive substring of the name, the namespace or any text cell. */
  filter?: string;
  /** Status texts to keep (rows without a status never match). */
  status?: string[];
  /** A column's name (case-insensitive), `name` or `namespace`. */
  sort?: string;
  order?: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** A column computed per request (CPU and MEMORY from the metrics poller), beside the printer's columns. */
export interface ExtraColumn {
  column: TableColumn;
  cell(row: IndexedRow): TableCell;
  key(row: IndexedRow): SortKey;
}

/** The rows of a window in order, with what the whole filtered kind looks like. */
export interface TableWindow {
  columns: TableColumn[];
  total: number;
  offset: number;
  rows: TableRow[];
  statuses: StatusCount[];
}

/** The sorted, filtered rows of one query: what every window of it is sliced from. */
export interface SortedRows {
  rows: IndexedRow[];
  statuses: StatusCount[];
}

const compareKeys = (a: SortKey, b: SortKey, direction: number): number => {
  if (a === b) return 0;
  // No value sorts last whichever the direction, as an empty cell is not a small one.
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === typeof b) return (a < b ? -1 : 1) * direction;
  return (typeof a === 'number' ? -1 : 1) * direction;
};

const byName = (a: IndexedRow, b: IndexedRow) =>
  compareKeys(a.nameKey, b.nameKey, 1) || compareKeys(a.namespaceKey, b.namespaceKey, 1);
const byNamespace = (a: IndexedRow, b: IndexedRow) =>
  compareKeys(a.namespaceKey, b.namespaceKey, 1) || compareKeys(a.nameKey, b.nameKey, 1);

/** The comparator of a sort: typed keys in the direction asked, then the name (and namespace) as tiebreak. */
function comparator(
  columns: readonly TableColumn[],
  extra: readonly ExtraColumn[],
  sort: string | undefined,
  order: 'asc' | 'desc' | undefined,
  namespaced: boolean,
): (a: IndexedRow, b: IndexedRow) => number {
  const direction = order === 'desc' ? -1 : 1;
  const wanted = (sort ?? (namespaced ? 'namespace' : 'name')).toLowerCase();
  if (wanted === 'name') return (a, b) => direction * byName(a, b);
  if (wanted === 'namespace') return (a, b) => direction * byNamespace(a, b);
  const index = columns.findIndex((c) => c.name.toLowerCase() === wanted);
  if (index >= 0) return (a, b) => compareKeys(a.key(index), b.key(index), direction) || byName(a, b);
  const computed = extra.find((c) => c.column.name.toLowerCase() === wanted);
  if (computed) {
    // Computed keys are looked up elsewhere (the metrics history): once per row, not once per comparison.
    const keys = new Map<IndexedRow, SortKey>();
    const keyOf = (row: IndexedRow) => {
      if (!keys.has(row)) keys.set(row, computed.key(row));
      return keys.get(row) ?? null;
    };
    return (a, b) => compareKeys(keyOf(a), keyOf(b), direction) || byName(a, b);
  }
  const names = [
    'name',
    ...(namespaced ? ['namespace'] : []),
    ...columns.map((c) => c.name),
    ...extra.map((c) => c.column.name),
  ];
  throw badRequest(`query parameter "sort" must be one of ${names.join(', ')}`);
}

/**
 * Filters and sorts a kind's rows: the text filter first, then the status counts (so the status filter can
 * offer every status the text filter leaves), then the status filter, then a stable typed sort.
 */
export function sortRows(
  all: readonly IndexedRow[],
  columns: readonly TableColumn[],
  extra: readonly ExtraColumn[],
  query: Omit<WindowQuery, 'offset' | 'limit'>,
  namespaced: boolean,
): SortedRows {
  const compare = comparator(columns, extra, query.sort, query.order, namespaced);
  const needle = query.filter?.toLowerCase();
  const matching = needle ? all.filter((r) => r.text.includes(needle)) : all;
  const counts = new Map<string, StatusCount>();
  for (const { row } of matching) {
    if (!row.status) continue;
    const entry = counts.get(row.status.text);
    if (entry) entry.count += 1;
    else counts.set(row.status.text, { ...row.status, count: 1 });
  }
  const wanted = query.status && new Set(query.status);
  const rows = wanted ? matching.filter((r) => r.row.status && wanted.has(r.row.status.text)) : [...matching];
  return {
    rows: rows.sort(compare),
    statuses: [...counts.values()].sort((a, b) => b.count - a.count || (a.text < b.text ? -1 : 1)),
  };
}

/** One window of sorted rows, with the computed columns' cells after the printer's. */
export function windowOf(
  sorted: SortedRows,
  columns: readonly TableColumn[],
  extra: readonly ExtraColumn[],
  offset: number,
  limit: number,
): TableWindow {
  const slice = sorted.rows.slice(offset, offset + limit);
  return {
    columns: [...columns, ...extra.map((c) => c.column)],
    total: sorted.rows.length,
    offset,
    rows: slice.map((indexed) =>
      extra.length === 0
        ? indexed.row
        : { ...indexed.row, cells: [...indexed.row.cells, ...extra.map((c) => c.cell(indexed))] },
    ),
    statuses: sorted.statuses,
  };
}

/** What a subscription last sent: each row's JSON by uid, the order, and the totals. */
export interface SentWindow {
  rows: Map<string, string>;
  order: string[];
  total: number;
  statuses: string;
}

export function sentWindow(window: TableWindow): SentWindow {
  return {
    rows: new Map(window.rows.map((row) => [row.uid, JSON.stringify(row)])),
    order: window.rows.map((row) => row.uid),
    total: window.total,
    statuses: JSON.stringify(window.statuses),
  };
}

/** The patch from what was sent to `next`, and what will then have been sent. */
export function diffWindow(sent: SentWindow, next: TableWindow): { patch?: WindowPatch; sent: SentWindow } {
  const now = sentWindow(next);
  const patch: WindowPatch = {};
  const changed = next.rows.filter((row) => sent.rows.get(row.uid) !== now.rows.get(row.uid));
  if (changed.length > 0) patch.rows = changed;
  const removed = sent.order.filter((uid) => !now.rows.has(uid));
  if (removed.length > 0) patch.removed = removed;
  if (now.order.length !== sent.order.length || now.order.some((uid, i) => sent.order[i] !== uid))
    patch.order = now.order;
  if (now.total !== sent.total) patch.total = now.total;
  if (now.statuses !== sent.statuses) patch.statuses = next.statuses;
  return { patch: Object.keys(patch).length > 0 ? patch : undefined, sent: now };
}
