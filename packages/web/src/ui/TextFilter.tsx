import type { Ref } from 'react';

/** A labelled text filter that commits on Enter or when focus leaves (so typing does not reload per key). */
export function TextFilter(props: {
  label: string;
  value?: string;
  placeholder?: string;
  onChange: (value?: string) => void;
  inputRef?: Ref<HTMLInputElement>;
  /** The key that focuses it, announced to assistive technology (the page binds it). */
  shortcut?: string;
}) {
  // Leaving the field unchanged is no change: it must not navigate (and swallow the click that moved focus).
  const commit = (text: string) => {
    const value = text.trim() || undefined;
    if (value !== props.value) props.onChange(value);
  };
  return (
    <label className="flex flex-col text-xs text-slate-600 dark:text-slate-400">
      {props.label}
      <input
        className="mt-1 w-48 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-100"
        ref={props.inputRef}
        aria-keyshortcuts={props.shortcut}
        defaultValue={props.value ?? ''}
        placeholder={props.placeholder}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit(e.currentTarget.value);
        }}
        onBlur={(e) => commit(e.currentTarget.value)}
      />
    </label>
  );
}
