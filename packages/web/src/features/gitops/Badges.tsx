const badge = 'inline-flex items-center gap-1 whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium';
const green = 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200';
const amber = 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200';
const red = 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200';
const blue = 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200';
const grey = 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300';

const colours: Record<string, string> = {
  Synced: green,
  OutOfSync: amber,
  Healthy: green,
  Progressing: blue,
  Degraded: red,
  Missing: amber,
  Suspended: grey,
  Ready: green,
  Failed: red,
  Reconciling: blue,
};

/** A GitOps tool's own word for a state (Synced, OutOfSync, Healthy, Degraded, Ready, …), coloured by its meaning. */
export function StateBadge({ state }: { state?: string }) {
  return <span className={`${badge} ${colours[state ?? ''] ?? grey}`}>{state ?? 'Unknown'}</span>;
}

/** A Flux object's Ready condition as one word; suspended ones say so first. */
export function fluxState(o: { ready: string; reconciling: boolean; suspended: boolean }): string {
  if (o.suspended) return 'Suspended';
  if (o.reconciling) return 'Reconciling';
  return o.ready === 'True' ? 'Ready' : o.ready === 'False' ? 'Failed' : 'Unknown';
}
