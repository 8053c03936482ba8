/** How each kind of line of a unified diff looks: added, removed, a hunk's header, a file's header, a rule. */
function lineLook(line: string): string {
  if (line.startsWith('===')) return 'text-slate-500 dark:text-slate-400';
  if (line.startsWith('+++') || line.startsWith('---'))
    return 'font-semibold text-slate-700 dark:text-slate-300';
  if (line.startsWith('+'))
    return 'bg-emerald-50 text-emerald-900 dark:bg-emerald-950/70 dark:text-emerald-200';
  if (line.startsWith('-')) return 'bg-red-50 text-red-900 dark:bg-red-950/70 dark:text-red-200';
  if (line.startsWith('@@')) return 'bg-sky-50 text-sky-900 dark:bg-sky-950/70 dark:text-sky-200';
  return 'text-slate-700 dark:text-slate-300';
}

/**
 * A unified diff (helm's manifests, two revisions, a values preview) with added and removed lines tinted; the
 * `+`/`-` stay, so the change reads without colour too. Long lines scroll; the keyboard reaches the block.
 */
export function UnifiedDiff({ diff, label, empty }: { diff: string; label: string; empty: string }) {
  const lines = diff.replace(/\n$/, '').split('\n');
  if (diff.trim() === '') return <p className="py-4 text-sm text-slate-600 dark:text-slate-400">{empty}</p>;
  const changed = lines.filter((l) => /^[+-](?![+-]{2})/.test(l));
  const added = changed.filter((l) => l.startsWith('+')).length;
  return (
    <div className="flex flex-col gap-2">
      <p className="text-xs text-slate-600 dark:text-slate-400">
        <span className="font-medium text-emerald-800 dark:text-emerald-300">+{added}</span>{' '}
        <span className="font-medium text-red-800 dark:text-red-300">−{changed.length - added}</span> lines
      </p>
      <section
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a long diff scrolls; the keyboard must reach it.
        tabIndex={0}
        aria-label={label}
        className="max-h-[60vh] overflow-auto rounded-md border border-slate-200 bg-white py-2 dark:border-slate-800 dark:bg-slate-950"
      >
        <pre className="w-max min-w-full font-mono text-xs leading-5">
          {lines.map((line, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one diff never move.
            <span key={index} className={`block px-3 ${lineLook(line)}`}>
              {line || ' '}
            </span>
          ))}
        </pre>
      </section>
    </div>
  );
}
