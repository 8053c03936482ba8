import {
  type KeyboardEvent,
  memo,
  type PointerEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useRef,
  useState,
} from 'react';

export interface Column<T> {
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** Width in pixels; undefined: the column takes the room the others leave (never below `minWidth`). */
  width?: number;
  minWidth: number;
  right?: boolean;
  /** The column's sort when it is the sorted one; undefined when another column sorts the table. */
  sorted?: 'asc' | 'desc';
  sortable?: boolean;
}

/** Rows a person can tick: the keys of the ticked rows, and how each row is named to a screen reader. */
export interface Selection<T> {
  selected: ReadonlySet<string>;
  change: (next: Set<string>, rows: T[]) => void;
  rowLabel: (row: T) => string;
}

const rowHeight = 36;
const overscan = 10;
const checkbox = 'h-4 w-4 accent-teal-700';
const checkboxWidth = 40;
const resizeStep = 16;

/**
 * A table of `count` rows that renders only those in view (fixed row height), so fifty thousand pods scroll
 * like fifty. Rows not loaded yet (`rowAt` answers undefined) are placeholders; `onRange` says which rows are in
 * view so the page can fetch them. Headers sort (aria-sort) and resize (a drag handle, or ←/→ on it).
 * The keyboard walks the rows like a list: ↑/↓ (or k/j), Page Up/Down, Home/End move the focus to a row's
 * first link, Enter opens it, Space or x ticks it when rows can be selected.
 */
export function VirtualTable<T>(props: {
  label: string;
  columns: Column<T>[];
  count: number;
  rowAt: (index: number) => T | undefined;
  rowKey: (row: T) => string;
  /** The rows in view (`first` to `last`, exclusive) of the `count`. */
  onRange?: (first: number, last: number, count: number) => void;
  onSort?: (column: string) => void;
  onResize?: (column: string, width: number) => void;
  selection?: Selection<T>;
  height?: number;
  /** The rows shown are the last known (the live updates are paused). */
  stale?: boolean;
}) {
  const { columns, count, rowAt, selection, rowKey, onRange } = props;
  const height = props.height ?? 640;
  const scroller = useRef<HTMLElement>(null);
  const [top, setTop] = useState(0);
  const [active, setActive] = useState(-1);
  const first = Math.max(0, Math.floor(top / rowHeight) - overscan);
  const last = Math.min(count, Math.ceil((top + height) / rowHeight) + overscan);

  useEffect(() => onRange?.(first, last, count), [first, last, count, onRange]);

  // The row the keyboard moved to exists only once the table rendered the new scroll position: focus it then.
  useEffect(() => {
    const region = scroller.current;
    if (active < 0 || !region?.contains(document.activeElement)) return;
    const target = region.querySelector<HTMLElement>(`tr[data-row="${active}"] :is(a, button)`);
    if (target && target !== document.activeElement) target.focus({ preventScroll: true });
  }, [active]);

  const moveTo = (index: number) => {
    const region = scroller.current;
    if (!region || count === 0) return;
    const to = Math.min(count - 1, Math.max(0, index));
    const view = region.clientHeight - rowHeight; // the sticky header covers one row
    const rowTop = to * rowHeight;
    if (rowTop < region.scrollTop) region.scrollTop = rowTop;
    else if (rowTop + rowHeight > region.scrollTop + view) region.scrollTop = rowTop + rowHeight - view;
    setTop(region.scrollTop);
    setActive(to);
  };

  const loaded: T[] = [];
  for (let i = first; i < last; i++) {
    const row = rowAt(i);
    if (row) loaded.push(row);
  }

  const toggle = (keys: string[], on: boolean) => {
    if (!selection) return;
    const next = new Set(selection.selected);
    for (const key of keys) {
      if (on) next.add(key);
      else next.delete(key);
    }
    selection.change(next, loaded);
  };
  // One callback for every row's checkbox, the same from render to render, so unchanged rows need no render.
  const latestToggle = useRef(toggle);
  useEffect(() => {
    latestToggle.current = toggle;
  });
  const tick = useCallback((key: string, on: boolean) => latestToggle.current([key], on), []);

  const onKeyDown = (event: KeyboardEvent) => {
    // Modified keys belong to the browser; a checkbox handles its own Space; a resize handle its arrows.
    const target = event.target as HTMLElement;
    if (event.altKey || event.ctrlKey || event.metaKey || target.tagName === 'INPUT' || target.closest('th'))
      return;
    const page = Math.max(1, Math.floor(height / rowHeight) - 1);
    const moves: Record<string, number> = {
      ArrowDown: active + 1,
      j: active + 1,
      ArrowUp: active - 1,
      k: active - 1,
      PageDown: active + page,
      PageUp: active - page,
      Home: 0,
      End: count - 1,
    };
    const to = moves[event.key];
    const current = rowAt(active);
    if (to !== undefined) {
      event.preventDefault();
      moveTo(to);
    } else if ((event.key === ' ' || event.key === 'x') && selection && current) {
      event.preventDefault();
      const key = rowKey(current);
      toggle([key], !selection.selected.has(key));
    }
  };

  const loadedKeys = selection ? loaded.map(rowKey) : [];
  const ticked = selection ? loadedKeys.filter((key) => selection.selected.has(key)).length : 0;
  const tableWidth =
    columns.reduce((sum, c) => sum + (c.width ?? c.minWidth), 0) + (selection ? checkboxWidth : 0);
  const span = columns.length + (selection ? 1 : 0);
  return (
    <section
      ref={scroller}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the scrolling region must take keyboard focus.
      tabIndex={0}
      aria-label={props.label}
      aria-busy={loaded.length < last - first}
      aria-keyshortcuts="ArrowDown ArrowUp j k PageDown PageUp Home End Space x"
      className={`overflow-auto rounded-lg border border-slate-200 bg-white focus:outline-none focus-visible:ring-2 focus-visible:ring-teal-600 dark:border-slate-800 dark:bg-slate-900 ${props.stale ? 'opacity-75' : ''}`}
      style={{ maxHeight: height }}
      onScroll={(e) => setTop(e.currentTarget.scrollTop)}
      onKeyDown={onKeyDown}
      onFocus={(e) => {
        const row = (e.target as HTMLElement).closest('tr[data-row]')?.getAttribute('data-row');
        if (row) setActive(Number(row));
      }}
    >
      <table className="w-full table-fixed text-left text-sm" style={{ minWidth: tableWidth }}>
        <colgroup>
          {selection && <col style={{ width: checkboxWidth }} />}
          {columns.map((c) => (
            <col key={c.id} style={c.width === undefined ? undefined : { width: c.width }} />
          ))}
        </colgroup>
        <thead className="sticky top-0 z-10 bg-slate-50 text-xs text-slate-600 dark:bg-slate-950 dark:text-slate-400">
          <tr style={{ height: rowHeight }}>
            {selection && (
              <th scope="col" className="px-3">
                <input
                  type="checkbox"
                  className={checkbox}
                  aria-label={`Select the ${loaded.length} rows shown`}
                  checked={ticked > 0 && ticked === loaded.length}
                  ref={(box) => {
                    if (box) box.indeterminate = ticked > 0 && ticked < loaded.length;
                  }}
                  onChange={(e) => toggle(loadedKeys, e.target.checked)}
                />
              </th>
            )}
            {columns.map((c) => (
              <HeaderCell key={c.id} column={c} onSort={props.onSort} onResize={props.onResize} />
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {first > 0 && <tr style={{ height: first * rowHeight }} />}
          {Array.from({ length: last - first }, (_, offset) => {
            const index = first + offset;
            const row = rowAt(index);
            if (!row)
              return (
                <tr key={`placeholder-${index}`} data-row={index} style={{ height: rowHeight }}>
                  <td colSpan={span} className="px-3">
                    <span className="block h-3 w-2/3 animate-pulse rounded bg-slate-100 dark:bg-slate-800" />
                  </td>
                </tr>
              );
            const key = rowKey(row);
            return (
              <BodyRow
                key={key}
                row={row}
                rowKey={key}
                index={index}
                columns={columns}
                selected={selection?.selected.has(key) ?? false}
                label={selection?.rowLabel(row)}
                tick={selection ? tick : undefined}
              />
            );
          })}
          {last < count && <tr style={{ height: (count - last) * rowHeight }} />}
        </tbody>
      </table>
    </section>
  );
}

interface BodyRowProps<T> {
  row: T;
  rowKey: string;
  index: number;
  columns: Column<T>[];
  selected: boolean;
  /** The row's name for a screen reader, when rows can be ticked. */
  label?: string;
  tick?: (key: string, on: boolean) => void;
}

function BodyRowOf<T>({ row, rowKey, index, columns, selected, label, tick }: BodyRowProps<T>) {
  return (
    <tr
      data-row={index}
      style={{ height: rowHeight }}
      className={`hover:bg-slate-50 focus-within:bg-teal-50 dark:hover:bg-slate-800/50 dark:focus-within:bg-teal-950/60 ${selected ? 'bg-teal-50/60 dark:bg-teal-950/30' : ''}`}
    >
      {tick && (
        <td className="px-3">
          <input
            type="checkbox"
            tabIndex={-1}
            className={checkbox}
            aria-label={`Select ${label}`}
            checked={selected}
            onChange={(e) => tick(rowKey, e.target.checked)}
          />
        </td>
      )}
      {columns.map((c) => (
        <td key={c.id} className={`relative truncate px-3 ${c.right ? 'text-right' : ''}`}>
          {c.cell(row)}
        </td>
      ))}
    </tr>
  );
}

/**
 * One object's row, memoised: while scrolling, the rows still in view keep their props (the same row object,
 * columns and callback) and are not rendered again; only those coming into view are.
 */
const BodyRow = memo(BodyRowOf) as typeof BodyRowOf;

function HeaderCell<T>({
  column,
  onSort,
  onResize,
}: {
  column: Column<T>;
  onSort?: (column: string) => void;
  onResize?: (column: string, width: number) => void;
}) {
  const cell = useRef<HTMLTableCellElement>(null);
  const resizeTo = (width: number) => onResize?.(column.id, Math.max(column.minWidth, Math.round(width)));
  const startDrag = (event: PointerEvent<HTMLSpanElement>) => {
    const startX = event.clientX;
    const startWidth = cell.current?.getBoundingClientRect().width ?? column.minWidth;
    const handle = event.currentTarget;
    handle.setPointerCapture(event.pointerId);
    const move = (e: globalThis.PointerEvent) => resizeTo(startWidth + e.clientX - startX);
    const stop = () => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', stop);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', stop);
  };
  const width = column.width ?? column.minWidth;
  const sortLabel =
    column.sorted === 'asc' ? 'ascending' : column.sorted === 'desc' ? 'descending' : undefined;
  return (
    <th
      ref={cell}
      scope="col"
      aria-sort={sortLabel}
      className={`relative font-medium ${column.right ? 'text-right' : ''}`}
    >
      {column.sortable && onSort ? (
        <button
          type="button"
          className="w-full truncate px-3 py-2 text-left font-medium hover:text-slate-900 dark:hover:text-slate-100"
          title={`Sort by ${column.header}`}
          onClick={() => onSort(column.id)}
        >
          {column.header}
          {column.sorted && <span aria-hidden="true">{column.sorted === 'asc' ? ' ▲' : ' ▼'}</span>}
        </button>
      ) : (
        <span className="block truncate px-3">{column.header}</span>
      )}
      {onResize && (
        // biome-ignore lint/a11y/useSemanticElements: an <hr> cannot be dragged or take focus; this is a focusable separator (a widget).
        <span
          role="separator"
          aria-orientation="vertical"
          aria-label={`Resize ${column.header}`}
          aria-valuenow={width}
          aria-valuemin={column.minWidth}
          aria-valuemax={2000}
          tabIndex={0}
          className="absolute inset-y-1 right-0 w-1.5 cursor-col-resize rounded bg-slate-200 hover:bg-teal-600 focus:bg-teal-600 focus:outline-none dark:bg-slate-700"
          onPointerDown={startDrag}
          onKeyDown={(e) => {
            if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
            e.preventDefault();
            resizeTo(width + (e.key === 'ArrowRight' ? resizeStep : -resizeStep));
          }}
        />
      )}
    </th>
  );
}
