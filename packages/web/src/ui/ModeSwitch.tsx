/** One choice of a switch and what the switch calls it. */
export type Mode<M extends string> = readonly [M, string];

/** A segmented switch of radio buttons (arrow keys move between them, as radios do). */
export function ModeSwitch<M extends string>(props: {
  name: string;
  label: string;
  modes: readonly Mode<M>[];
  value: M;
  onChange: (mode: M) => void;
}) {
  return (
    <div
      role="radiogroup"
      aria-label={props.label}
      className="inline-flex w-fit overflow-hidden rounded-md border border-slate-300 text-sm dark:border-slate-700"
    >
      {props.modes.map(([mode, label]) => (
        <label
          key={mode}
          className="cursor-pointer border-slate-300 px-3 py-1 not-first:border-l has-checked:bg-teal-700 has-checked:text-white has-focus-visible:outline-2 has-focus-visible:outline-teal-600 dark:border-slate-700"
        >
          <input
            type="radio"
            className="sr-only"
            name={props.name}
            value={mode}
            checked={props.value === mode}
            onChange={() => props.onChange(mode)}
          />
          {label}
        </label>
      ))}
    </div>
  );
}
