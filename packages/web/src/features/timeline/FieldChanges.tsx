/** One changed field: where, and its value before and after (absent on the side where the field was not set). */
export interface FieldChange {
  path: string;
  old?: unknown;
  new?: unknown;
}

const show = (value: unknown) =>
  value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value);

/** Changed fields as a three-column table (field, before, after), removed values red and added ones green. */
export function FieldChanges({
  fields,
  caption = 'Changed fields',
}: {
  fields: FieldChange[];
  caption?: string;
}) {
  return (
    <table className="w-full table-fixed text-left font-mono text-xs">
      <caption className="sr-only">{caption}</caption>
      <thead className="text-slate-600 dark:text-slate-400">
        <tr>
          <th scope="col" className="w-2/5 pb-1 font-medium">
            Field
          </th>
          <th scope="col" className="pb-1 font-medium">
            Before
          </th>
          <th scope="col" className="pb-1 font-medium">
            After
          </th>
        </tr>
      </thead>
      <tbody>
        {fields.map((f) => (
          <tr key={f.path} className="align-top">
            <td className="py-0.5 pr-3 break-words">{f.path}</td>
            <td className="py-0.5 pr-3 break-words text-red-800 dark:text-red-300">{show(f.old)}</td>
            <td className="py-0.5 break-words text-emerald-800 dark:text-emerald-300">{show(f.new)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
