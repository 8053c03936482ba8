/** A compact table: column headings (right-aligned where numbers stand), rows given by the page. */
export function Table({
  columns,
  children,
}: {
  columns: (string | { label: string; right: true })[];
  children: React.ReactNode;
}) {
  return (
    <table className="w-full text-left text-sm">
      <thead className="text-xs text-slate-600 dark:text-slate-400">
        <tr>
          {columns.map((column) => {
            const label = typeof column === 'string' ? column : column.label;
            const right = typeof column !== 'string';
            return (
              <th key={label} scope="col" className={`pb-2 font-medium ${right ? 'text-right' : ''}`}>
                {label}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100 dark:divide-slate-800">{children}</tbody>
    </table>
  );
}
