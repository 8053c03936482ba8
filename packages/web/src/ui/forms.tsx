import type { InputHTMLAttributes } from 'react';

/** How a text field, a select or a plain button looks in the app's forms. */
export const controlLook =
  'rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-800';

/** A text field with its label above it; every other attribute goes to the input. */
export function Field({
  label,
  onText,
  ...input
}: { label: string; onText: (value: string) => void } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'onChange'
>) {
  return (
    <label className="flex flex-col gap-1 text-sm">
      {label}
      <input className={controlLook} {...input} onChange={(e) => onText(e.target.value)} />
    </label>
  );
}
