import { type ReactNode, useId } from 'react';

/**
 * A table row that opens a detail row beneath it: the first cell is a disclosure button (its name says what it
 * opens, `aria-expanded` whether it is open), the detail spans the other columns. The page keeps which rows are
 * open. Pair it with a Table whose first column is `{ label: 'Details', hidden: true }`.
 */
export function ExpandableRow(props: {
  /** What the button opens, for screen readers: `findings of Deployment demo-shop/checkout`. */
  label: string;
  open: boolean;
  onToggle: () => void;
  /** How many columns the table has, the disclosure one included. */
  columns: number;
  className?: string;
  children: ReactNode;
  detail: () => ReactNode;
}) {
  const id = useId();
  return (
    <>
      <tr className={`${props.open ? 'bg-slate-50 dark:bg-slate-800/40' : ''} ${props.className ?? ''}`}>
        <td className="w-8 py-1.5 pr-1 align-top">
          <button
            type="button"
            aria-expanded={props.open}
            aria-controls={props.open ? id : undefined}
            aria-label={`Details: ${props.label}`}
            onClick={props.onToggle}
            className="mt-0.5 flex h-6 w-6 items-center justify-center rounded text-slate-600 hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-teal-600 dark:text-slate-400 dark:hover:bg-slate-700"
          >
            <span aria-hidden="true" className={`transition-transform ${props.open ? 'rotate-90' : ''}`}>
              ▸
            </span>
          </button>
        </td>
        {props.children}
      </tr>
      {props.open && (
        <tr id={id} className="bg-slate-50 dark:bg-slate-800/40">
          <td />
          <td colSpan={props.columns - 1} className="pt-1 pr-4 pb-4">
            {props.detail()}
          </td>
        </tr>
      )}
    </>
  );
}
