import { Badge, type Tone } from '../../ui/Badge.tsx';
import type { UpgradeInfo } from './types.ts';

const statusTones: Record<string, Tone> = {
  deployed: 'good',
  superseded: 'muted',
  failed: 'bad',
  uninstalled: 'muted',
};

/** A release's (or a revision's) status as Helm names it: deployed, failed, pending-upgrade, superseded, … */
export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={statusTones[status] ?? 'warn'}>{status}</Badge>;
}

/** A newer chart version in a configured source, when there is one. */
export function UpgradeBadge({ info }: { info?: UpgradeInfo }) {
  if (!info?.updateAvailable || !info.latestVersion) return null;
  return (
    <Badge
      tone="info"
      title={`Upgrade available: ${info.latestVersion}${info.repositoryName ? ` in ${info.repositoryName}` : ''}`}
    >
      <span className="sr-only">Upgrade available:</span>
      <span aria-hidden="true">↑</span>
      {info.latestVersion}
    </Badge>
  );
}
