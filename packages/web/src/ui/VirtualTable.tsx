import { type ReactNode, useRef, useState } from 'react';

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** Tailwind width class, e.g. `w-24`. */
  width?: string;
  right?: boolean;
}

const rowHeight = 36;
const overscan = 10;

/**
 * A table that renders only the rows in view (fixed row height), so ten thousand pods scroll like fifty.
 * Rows are links or buttons the caller renders in its cells; the table itself is plain semantic markup.
 */
export function VirtualTable<T>(props: {
  label: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  height?: number;
}) {
  const { columns, rows } = props;
  const height = props.height ?? 640;
  const scroller = useRef<HTMLElement>(null);
  const [top, setTop] = useState(0);
  const first = Math.max(0, Math.floor(top / rowHeight) - overscan);
  const last = Math.min(rows.length, Math.ceil((top + height) / rowHeight) + overscan);
  const cell = (c: Column<T>) => `truncate px-3 ${c.width ?? ''} ${c.right ? 'text-right' : ''}`;
  return (
    <section
      ref={scroller}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the scrolling region must take keyboard focus.
      tabIndex={0}
      aria-label={props.label}
      className="overflow-auto rounded-lg border border-slate-200 bg-white focus:outline-none dark:border-slate-800 dark:bg-slate-900"
      style={{ maxHeight: height }}
      onScroll={(e) => setTop(e.currentTarget.scrollTop)}
    >
      <table className="w-full table-fixed text-left text-sm">
        <thead className="sticky top-0 z-10 bg-slate-50 text-xs text-slate-600 dark:bg-slate-950 dark:text-slate-400">
          <tr style={{ height: rowHeight }}>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={`font-medium ${cell(c)}`}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {first > 0 && <tr style={{ height: first * rowHeight }} />}
          {rows.slice(first, last).map((row) => (
            <tr
              key={props.rowKey(row)}
              style={{ height: rowHeight }}
              className="hover:bg-slate-50 dark:hover:bg-slate-800/50"
            >
              {columns.map((c) => (
                <td key={c.header} className={cell(c)}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
          {last < rows.length && <tr style={{ height: (rows.length - last) * rowHeight }} />}
        </tbody>
      </table>
    </section>
  );
}
