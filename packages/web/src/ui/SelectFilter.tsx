/** A labelled drop-down filter (the label above it, as TextFilter has); the empty value means "all". */
export function SelectFilter<T extends string>(props: {
  label: string;
  value?: T;
  /** What the empty choice says: `All categories`. */
  all: string;
  options: readonly (readonly [T, string])[];
  onChange: (value?: T) => void;
}) {
  return (
    <label className="flex flex-col text-xs text-slate-600 dark:text-slate-400">
      {props.label}
      <select
        className="mt-1 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-100"
        value={props.value ?? ''}
        onChange={(e) => props.onChange((e.target.value || undefined) as T | undefined)}
      >
        <option value="">{props.all}</option>
        {props.options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </label>
  );
}
