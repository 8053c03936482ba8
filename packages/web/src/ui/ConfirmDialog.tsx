import { type ReactNode, useEffect, useRef } from 'react';

/** Asks before an action changes the cluster; Esc or Cancel leaves everything as it is. */
export function ConfirmDialog(props: {
  title: string;
  children: ReactNode;
  confirm: string;
  busy?: boolean;
  /** Nothing to confirm yet (a choice still loading or missing). */
  disabled?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  return (
    <dialog
      ref={dialog}
      aria-label={props.title}
      onCancel={props.onCancel}
      className="m-auto w-full max-w-md rounded-xl border border-slate-200 bg-white p-5 text-slate-900 shadow-2xl backdrop:bg-slate-900/40 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    >
      <h2 className="text-base font-semibold">{props.title}</h2>
      <div className="mt-2 text-sm">{props.children}</div>
      <div className="mt-5 flex justify-end gap-2">
        <button
          type="button"
          className="rounded-md border border-slate-300 px-3 py-1.5 text-sm dark:border-slate-700"
          onClick={props.onCancel}
        >
          Cancel
        </button>
        <button
          type="button"
          disabled={props.busy || props.disabled}
          className="rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-60"
          onClick={props.onConfirm}
        >
          {props.busy ? 'Working…' : props.confirm}
        </button>
      </div>
    </dialog>
  );
}
