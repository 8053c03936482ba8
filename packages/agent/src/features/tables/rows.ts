import {
  isRelativeTime,
  parseQuantity,
  type TableCell,
  type TableColumn,
  type TableRow,
} from '@binnacle/common';
import type { KubeObject } from '../../kube/objects.ts';
import type { Printer } from './printers/index.ts';

/** A comparable form of a cell: numbers before strings, null (no value) always last. */
export type SortKey = number | string | null;

/**
 * A printed row with what sorting and filtering need worked out once: one sort key per column, natural-order
 * keys of the name and namespace, and the lowercased text the filter searches.
 */
export interface IndexedRow {
  row: TableRow;
  keys: SortKey[];
  nameKey: string;
  namespaceKey: string;
  text: string;
}

/**
 * A string whose code-point order is natural order: every run of digits is padded to a fixed width, so
 * `web-10` sorts after `web-9` with a plain `<` (no collator call per comparison).
 */
export const naturalKey = (text: string) => text.replace(/\d{1,19}/g, (digits) => digits.padStart(20, '0'));

const leadingNumber = /^\s*(-?\d+(?:\.\d+)?)/;

/** The sort key of a cell in a column of this type. */
export function sortKey(cell: TableCell, type: TableColumn['type']): SortKey {
  if (cell === null) return null;
  if (typeof cell === 'number') return cell;
  if (isRelativeTime(cell)) {
    // A restart count with its last restart ("5 (3m ago)") sorts by the count; an age by its moment.
    const count = type === 'date' ? undefined : leadingNumber.exec(cell.before ?? '')?.[1];
    return count === undefined ? Date.parse(cell.at) : Number(count);
  }
  if (type === 'quantity') return parseQuantity(cell) ?? naturalKey(cell);
  if (type === 'integer' || type === 'number') {
    const value = Number(cell);
    return Number.isFinite(value) && cell.trim() !== '' ? value : naturalKey(cell);
  }
  return naturalKey(cell);
}

/** Lowercased name, namespace and text cells: what `filter` matches as a plain substring. */
function searchText(row: TableRow): string {
  const parts = [row.name, row.namespace ?? ''];
  for (const cell of row.cells)
    if (typeof cell === 'string' || typeof cell === 'number') parts.push(String(cell));
  return parts.join('\n').toLowerCase();
}

export function indexRow(row: TableRow, columns: readonly TableColumn[]): IndexedRow {
  return {
    row,
    keys: columns.map((column, i) => sortKey(row.cells[i] ?? null, column.type)),
    nameKey: naturalKey(row.name),
    namespaceKey: naturalKey(row.namespace ?? ''),
    text: searchText(row),
  };
}

/**
 * Printed rows per object version. The informer cache replaces an object when it changes (never mutates it),
 * so an entry keyed by the object is the row of exactly that resourceVersion and goes with it; a printer
 * replaced (a CRD's columns changed) prints the object again (ADR 0054).
 */
const printed = new WeakMap<KubeObject, { printer: Printer; indexed: IndexedRow }>();

export function printedRow(printer: Printer, object: KubeObject): IndexedRow {
  const hit = printed.get(object);
  if (hit?.printer === printer) return hit.indexed;
  const { cells, status } = printer.print(object);
  const metadata = object.metadata ?? {};
  const name = metadata.name ?? '';
  const indexed = indexRow(
    {
      uid: metadata.uid ?? `${metadata.namespace ?? ''}/${name}`,
      ...(metadata.namespace ? { namespace: metadata.namespace } : {}),
      name,
      cells,
      ...(status ? { status } : {}),
    },
    printer.columns,
  );
  printed.set(object, { printer, indexed });
  return indexed;
}
