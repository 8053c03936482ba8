import { type InputHTMLAttributes, useId } from 'react';

/** How a text field, a select or a plain button looks in the app's forms. */
export const controlLook =
  'rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-800';

/** How a form control's label, set above it, looks. */
export const labelLook = 'flex flex-col gap-1 text-sm';

/**
 * A text field with its label above it; every other attribute goes to the input. With `error`, the field is
 * marked invalid and the message stands under it (the server's words for what is wrong with this field).
 */
export function Field({
  label,
  onText,
  error,
  className,
  ...input
}: { label: string; onText: (value: string) => void; error?: string } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'onChange'
>) {
  const errorId = useId();
  const field = (
    <label className={labelLook}>
      {label}
      <input
        className={`${className ?? controlLook} ${error ? 'border-red-600 dark:border-red-500' : ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...input}
        onChange={(e) => onText(e.target.value)}
      />
    </label>
  );
  // One shape with or without an error, so the input keeps its focus when the message comes or goes.
  return (
    <div className="flex flex-col gap-1">
      {field}
      {error && (
        <span id={errorId} role="alert" className="max-w-md text-xs text-red-800 dark:text-red-300">
          {error}
        </span>
      )}
    </div>
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
