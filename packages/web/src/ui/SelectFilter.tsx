import { controlLook, labelLook } from './forms.tsx';

const looks = {
  filter: {
    label: 'flex flex-col text-xs text-slate-600 dark:text-slate-400',
    select:
      'mt-1 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-100',
  },
  field: { label: labelLook, select: controlLook },
};

/**
 * A labelled drop-down (the label above it, as TextFilter has); the empty value means "all" (or whatever `all`
 * says). `look="field"` sets it among a dialog's Fields instead of a table's filters.
 */
export function SelectFilter<T extends string>(props: {
  label: string;
  value?: T;
  /** What the empty choice says: `All categories`. */
  all: string;
  options: readonly (readonly [T, string])[];
  onChange: (value?: T) => void;
  look?: keyof typeof looks;
}) {
  const look = looks[props.look ?? 'filter'];
  return (
    <label className={look.label}>
      {props.label}
      <select
        className={look.select}
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
