/** Text that may be long (values, commands): scrolls, and the keyboard can reach it to scroll. */
export function CodeBlock({ label, text }: { label: string; text: string }) {
  return (
    <section aria-label={label} className="flex flex-col gap-1">
      <h3 className="text-xs font-medium text-slate-600 dark:text-slate-400">{label}</h3>
      <pre
        // biome-ignore lint/a11y/noNoninteractiveTabindex: long lines scroll; the keyboard must reach them.
        tabIndex={0}
        className="overflow-auto rounded-md bg-slate-900 p-3 font-mono text-xs text-slate-100"
      >
        {text}
      </pre>
    </section>
  );
}
