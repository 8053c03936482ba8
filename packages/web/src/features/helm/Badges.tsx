import type { UpgradeInfo } from './types.ts';

const badge = 'inline-flex items-center gap-1 whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium';

const statusColours: Record<string, string> = {
  deployed: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
  superseded: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300',
  failed: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200',
  uninstalled: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300',
};
const pending = 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200';

/** A release's (or a revision's) status as Helm names it: deployed, failed, pending-upgrade, superseded, … */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`${badge} ${statusColours[status] ?? pending}`}>{status}</span>;
}

/** A newer chart version in a configured source, when there is one. */
export function UpgradeBadge({ info }: { info?: UpgradeInfo }) {
  if (!info?.updateAvailable || !info.latestVersion) return null;
  return (
    <span
      className={`${badge} bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200`}
      title={`Upgrade available: ${info.latestVersion}${info.repositoryName ? ` in ${info.repositoryName}` : ''}`}
    >
      <span className="sr-only">Upgrade available:</span>
      <span aria-hidden="true">↑</span>
      {info.latestVersion}
    </span>
  );
}
