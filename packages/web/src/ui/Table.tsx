/** A column heading: its text, right-aligned where numbers stand, or read only by screen readers (a disclosure). */
export type ColumnHeading = string | { label: string; right?: true; hidden?: true };

/**
 * A compact table: column headings (right-aligned where numbers stand), rows given by the page. Headings keep the
 * gap the pages' cells keep (`pr-4`, none after the last), so right-aligned ones stand over their numbers.
 */
export function Table({
  columns,
  label,
  children,
}: {
  columns: ColumnHeading[];
  /** The table's accessible name, when the page holds more than one. */
  label?: string;
  children: React.ReactNode;
}) {
  return (
    <table className="w-full text-left text-sm" aria-label={label}>
      <thead className="text-xs text-slate-600 dark:text-slate-400">
        <tr>
          {columns.map((column) => {
            const heading = typeof column === 'string' ? { label: column } : column;
            return (
              <th
                key={heading.label}
                scope="col"
                className={`pr-4 pb-2 font-medium last:pr-0 ${'right' in heading && heading.right ? 'text-right' : ''}`}
              >
                {'hidden' in heading && heading.hidden ? (
                  <span className="sr-only">{heading.label}</span>
                ) : (
                  heading.label
                )}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100 dark:divide-slate-800">{children}</tbody>
    </table>
  );
}
