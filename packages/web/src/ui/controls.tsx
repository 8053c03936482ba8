/** How the pages' links, buttons and main actions look (the app's teal links and bordered buttons). */
export const linkLook = 'text-teal-800 hover:underline dark:text-teal-300';
export const buttonLook =
  'rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 disabled:opacity-60 dark:border-slate-700 dark:hover:bg-slate-800';
export const primaryLook =
  'rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-60';
/** A white panel on the page's grey, holding a table or a form. */
export const panelLook =
  'rounded-lg border border-slate-200 bg-white px-4 pt-3 pb-1 shadow-sm dark:border-slate-800 dark:bg-slate-900';
/** Secondary text: hints, counts beside headings, units. */
export const mutedLook = 'text-slate-600 dark:text-slate-400';

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
