/** How full a limit is, in colour: room left, nearly full (80 %), full. */
const fill = (share: number) =>
  share >= 1 ? 'bg-red-600 dark:bg-red-500' : share >= 0.8 ? 'bg-amber-500' : 'bg-teal-600 dark:bg-teal-500';

/** Usage against a plan's limit: the figures in words, and a bar for the eye. */
export function UsageBar({
  label,
  used,
  limit,
  note,
}: {
  label: string;
  used: number;
  limit: number;
  note?: string;
}) {
  const share = limit > 0 ? Math.min(1, used / limit) : 1;
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-baseline justify-between gap-3 text-sm">
        <span className="font-medium">{label}</span>
        <span className="tabular-nums">
          {used} of {limit}
          {note && <span className="ml-2 text-xs text-slate-600 dark:text-slate-400">{note}</span>}
        </span>
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: a native <meter> takes no consistent styling across browsers, and this bar must read in both themes. */}
      <div
        role="meter"
        aria-label={`${label}: ${used} of ${limit}`}
        aria-valuemin={0}
        aria-valuemax={limit}
        aria-valuenow={Math.min(used, limit)}
        className="h-2.5 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
      >
        <div className={`h-full rounded-full ${fill(share)}`} style={{ width: `${share * 100}%` }} />
      </div>
    </div>
  );
}
