import {
  isRelativeTime,
  type KubeObject,
  parseQuantity,
  type TableCell,
  type TableColumn,
  type TableRow,
} from '@binnacle/common';
import type { Printer } from './printers/index.ts';

/** A comparable form of a cell: numbers before strings, null (no value) always last. */
export type SortKey = number | string | null;

/**
 * A string whose code-point order is natural order: every run of digits is padded to a fixed width, so
 * `web-10` sorts after `web-9` with a plain `<` (no collator call per comparison).
 */
const hasDigit = /\d/;
export const naturalKey = (text: string) =>
  hasDigit.test(text) ? text.replace(/\d{1,19}/g, (digits) => digits.padStart(20, '0')) : text;

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

/**
 * A printed row with what sorting and filtering need: natural-order keys of the name and namespace (every sort
 * uses them, as its order or its tiebreak), and, worked out the first time a query needs them and then kept, a
 * column's sort key and the lowercased text the filter searches: most queries use none of those, and every
 * row of a kind is printed when it syncs (ADR 0060).
 */
export class IndexedRow {
  readonly row: TableRow;
  readonly nameKey: string;
  readonly namespaceKey: string;
  readonly #columns: readonly TableColumn[];
  readonly #keys: (SortKey | undefined)[] = [];
  #text?: string;

  constructor(row: TableRow, columns: readonly TableColumn[]) {
    this.row = row;
    this.nameKey = naturalKey(row.name);
    this.namespaceKey = naturalKey(row.namespace ?? '');
    this.#columns = columns;
  }

  /** The sort key of column `index`. */
  key(index: number): SortKey {
    const known = this.#keys[index];
    if (known !== undefined) return known;
    const key = sortKey(this.row.cells[index] ?? null, this.#columns[index]?.type ?? 'string');
    this.#keys[index] = key;
    return key;
  }

  get text(): string {
    this.#text ??= searchText(this.row);
    return this.#text;
  }
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
  const indexed = new IndexedRow(
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
