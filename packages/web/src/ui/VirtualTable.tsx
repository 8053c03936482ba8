import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from 'react';

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** Tailwind width class, e.g. `w-24`. */
  width?: string;
  right?: boolean;
}

/** Rows a person can tick: the keys of the ticked rows, and how each row is named to a screen reader. */
export interface Selection<T> {
  selected: ReadonlySet<string>;
  change: (next: Set<string>) => void;
  rowLabel: (row: T) => string;
}

const rowHeight = 36;
const overscan = 10;
const checkbox = 'h-4 w-4 accent-teal-700';

/**
 * A table that renders only the rows in view (fixed row height), so ten thousand pods scroll like fifty.
 * The keyboard walks it like a list: ↑/↓ (or k/j), Page Up/Down, Home/End move the focus to a row's first link,
 * Enter opens it, Space or x ticks it when rows can be selected. The table itself is plain semantic markup.
 */
export function VirtualTable<T>(props: {
  label: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  selection?: Selection<T>;
  height?: number;
}) {
  const { columns, rows, selection, rowKey } = props;
  const height = props.height ?? 640;
  const scroller = useRef<HTMLElement>(null);
  const [top, setTop] = useState(0);
  const [active, setActive] = useState(-1);
  const first = Math.max(0, Math.floor(top / rowHeight) - overscan);
  const last = Math.min(rows.length, Math.ceil((top + height) / rowHeight) + overscan);
  const cell = (c: Column<T>) => `truncate px-3 ${c.width ?? ''} ${c.right ? 'text-right' : ''}`;

  // The row the keyboard moved to exists only once the table rendered the new scroll position: focus it then.
  useEffect(() => {
    const region = scroller.current;
    if (active < 0 || !region?.contains(document.activeElement)) return;
    const target = region.querySelector<HTMLElement>(`tr[data-row="${active}"] :is(a, button)`);
    if (target && target !== document.activeElement) target.focus({ preventScroll: true });
  }, [active]);

  const moveTo = (index: number) => {
    const region = scroller.current;
    if (!region || rows.length === 0) return;
    const to = Math.min(rows.length - 1, Math.max(0, index));
    const view = region.clientHeight - rowHeight; // the sticky header covers one row
    const rowTop = to * rowHeight;
    if (rowTop < region.scrollTop) region.scrollTop = rowTop;
    else if (rowTop + rowHeight > region.scrollTop + view) region.scrollTop = rowTop + rowHeight - view;
    setTop(region.scrollTop);
    setActive(to);
  };

  const toggle = (keys: string[], on: boolean) => {
    if (!selection) return;
    const next = new Set(selection.selected);
    for (const key of keys) {
      if (on) next.add(key);
      else next.delete(key);
    }
    selection.change(next);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    // Modified keys belong to the browser; a checkbox handles its own Space.
    if (event.altKey || event.ctrlKey || event.metaKey || (event.target as HTMLElement).tagName === 'INPUT')
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
      End: rows.length - 1,
    };
    const to = moves[event.key];
    if (to !== undefined) {
      event.preventDefault();
      moveTo(to);
    } else if ((event.key === ' ' || event.key === 'x') && selection && rows[active]) {
      event.preventDefault();
      const key = rowKey(rows[active]);
      toggle([key], !selection.selected.has(key));
    }
  };

  const allKeys = selection ? rows.map(rowKey) : [];
  const ticked = selection ? allKeys.filter((key) => selection.selected.has(key)).length : 0;
  return (
    <section
      ref={scroller}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the scrolling region must take keyboard focus.
      tabIndex={0}
      aria-label={props.label}
      aria-keyshortcuts="ArrowDown ArrowUp j k PageDown PageUp Home End Space x"
      className="overflow-auto rounded-lg border border-slate-200 bg-white focus:outline-none focus-visible:ring-2 focus-visible:ring-teal-600 dark:border-slate-800 dark:bg-slate-900"
      style={{ maxHeight: height }}
      onScroll={(e) => setTop(e.currentTarget.scrollTop)}
      onKeyDown={onKeyDown}
      onFocus={(e) => {
        const row = (e.target as HTMLElement).closest('tr[data-row]')?.getAttribute('data-row');
        if (row) setActive(Number(row));
      }}
    >
      <table className="w-full table-fixed text-left text-sm">
        <thead className="sticky top-0 z-10 bg-slate-50 text-xs text-slate-600 dark:bg-slate-950 dark:text-slate-400">
          <tr style={{ height: rowHeight }}>
            {selection && (
              <th scope="col" className="w-10 px-3">
                <input
                  type="checkbox"
                  className={checkbox}
                  aria-label={`Select all ${rows.length}`}
                  checked={ticked > 0 && ticked === rows.length}
                  ref={(box) => {
                    if (box) box.indeterminate = ticked > 0 && ticked < rows.length;
                  }}
                  onChange={(e) => toggle(allKeys, e.target.checked)}
                />
              </th>
            )}
            {columns.map((c) => (
              <th key={c.header} scope="col" className={`font-medium ${cell(c)}`}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {first > 0 && <tr style={{ height: first * rowHeight }} />}
          {rows.slice(first, last).map((row, offset) => {
            const key = rowKey(row);
            const on = selection?.selected.has(key) ?? false;
            return (
              <tr
                key={key}
                data-row={first + offset}
                style={{ height: rowHeight }}
                className={`hover:bg-slate-50 focus-within:bg-teal-50 dark:hover:bg-slate-800/50 dark:focus-within:bg-teal-950/60 ${on ? 'bg-teal-50/60 dark:bg-teal-950/30' : ''}`}
              >
                {selection && (
                  <td className="w-10 px-3">
                    <input
                      type="checkbox"
                      tabIndex={-1}
                      className={checkbox}
                      aria-label={`Select ${selection.rowLabel(row)}`}
                      checked={on}
                      onChange={(e) => toggle([key], e.target.checked)}
                    />
                  </td>
                )}
                {columns.map((c) => (
                  <td key={c.header} className={cell(c)}>
                    {c.cell(row)}
                  </td>
                ))}
              </tr>
            );
          })}
          {last < rows.length && <tr style={{ height: (rows.length - last) * rowHeight }} />}
        </tbody>
      </table>
    </section>
  );
}
