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

/** A small button in a table row (Revoke, Remove, Withdraw). */
export const rowButtonLook =
  'rounded-md border border-slate-300 px-2 py-1 text-xs hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800';

/** A form's submit button, saying what it is doing while its request runs. */
export function SubmitButton({
  busy,
  label,
  busyLabel,
}: {
  busy: boolean;
  label: string;
  busyLabel: string;
}) {
  return (
    <button type="submit" disabled={busy} className={`${controlLook} font-medium hover:bg-slate-100`}>
      {busy ? busyLabel : label}
    </button>
  );
}
