import { type ReactNode, useState } from 'react';

export interface SortColumn<T> {
  label: string;
  cell: (row: T) => ReactNode;
  /** What the column sorts by; a column without one does not sort. */
  sortBy?: (row: T) => number | string;
  /** Numbers stand right-aligned. */
  right?: boolean;
}

interface Order {
  column: number;
  descending: boolean;
}

/**
 * A table whose column headings sort it: a heading is a button, pressing it again turns the order round, and the
 * heading carries `aria-sort`. Numbers start largest first (what costs most), text from A.
 */
export function SortableTable<T>(props: {
  label: string;
  columns: SortColumn<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  initial: Order;
  /** A row's look and what a click on it does (the traffic table picks a pair out on its map). */
  rowProps?: (row: T) => { className?: string; onClick?: () => void };
}) {
  const { columns } = props;
  const [order, setOrder] = useState(props.initial);
  const by = columns[order.column]?.sortBy;
  const rows = by
    ? [...props.rows].sort((a, b) => {
        const [x, y] = [by(a), by(b)];
        const compared =
          typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
        return order.descending ? -compared : compared;
      })
    : props.rows;
  const choose = (column: number) =>
    setOrder((now) =>
      now.column === column
        ? { column, descending: !now.descending }
        : { column, descending: Boolean(columns[column]?.right) },
    );
  return (
    <table className="w-full text-left text-sm" aria-label={props.label}>
      <thead className="text-xs text-slate-600 dark:text-slate-400">
        <tr>
          {columns.map((c, i) => {
            const sorted = order.column === i;
            return (
              <th
                key={c.label}
                scope="col"
                aria-sort={sorted ? (order.descending ? 'descending' : 'ascending') : undefined}
                className={`pr-4 pb-2 font-medium last:pr-0 ${c.right ? 'text-right' : ''}`}
              >
                {c.sortBy ? (
                  <button
                    type="button"
                    onClick={() => choose(i)}
                    className={`inline-flex items-center gap-1 hover:text-slate-900 dark:hover:text-slate-100 ${
                      sorted ? 'text-slate-900 dark:text-slate-100' : ''
                    }`}
                  >
                    {c.label}
                    <span aria-hidden="true" className={sorted ? '' : 'invisible'}>
                      {order.descending ? '▾' : '▴'}
                    </span>
                  </button>
                ) : (
                  c.label
                )}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
        {rows.map((row) => (
          <tr key={props.rowKey(row)} {...props.rowProps?.(row)}>
            {columns.map((c) => (
              <td
                key={c.label}
                className={`py-1.5 pr-4 last:pr-0 ${c.right ? 'text-right tabular-nums' : ''}`}
              >
                {c.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
