import { controlLook } from '../../ui/forms.tsx';

/** How the Helm pages' links, buttons and main actions look (the app's teal links and bordered buttons). */
export const linkLook = 'text-teal-800 hover:underline dark:text-teal-300';
export const buttonLook =
  'rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 disabled:opacity-60 dark:border-slate-700 dark:hover:bg-slate-800';
export const primaryLook =
  'rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-60';

/** A checkbox with its label beside it. */
export function Checkbox(props: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  className?: string;
}) {
  return (
    <label className={`flex items-center gap-2 text-sm ${props.className ?? ''}`}>
      <input
        type="checkbox"
        className="h-4 w-4 accent-teal-700"
        checked={props.checked}
        onChange={(e) => props.onChange(e.target.checked)}
      />
      {props.label}
    </label>
  );
}

/** A values field in YAML, as text (the agent parses it; invalid YAML is its 400 naming the problem). */
export function ValuesField(props: {
  label: string;
  value: string;
  onText: (text: string) => void;
  rows?: number;
}) {
  return (
    <label className="flex flex-col gap-1 text-sm">
      {props.label}
      <textarea
        className={`${controlLook} font-mono text-xs`}
        rows={props.rows ?? 6}
        spellCheck={false}
        value={props.value}
        placeholder={'config:\n  currency: USD'}
        onChange={(e) => props.onText(e.target.value)}
      />
    </label>
  );
}
