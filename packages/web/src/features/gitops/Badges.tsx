import { Badge, type Tone } from '../../ui/Badge.tsx';

const tones: Record<string, Tone> = {
  Synced: 'good',
  OutOfSync: 'warn',
  Healthy: 'good',
  Progressing: 'info',
  Degraded: 'bad',
  Missing: 'warn',
  Suspended: 'muted',
  Ready: 'good',
  Failed: 'bad',
  Reconciling: 'info',
};

/** A GitOps tool's own word for a state (Synced, OutOfSync, Healthy, Degraded, Ready, …), coloured by its meaning. */
export function StateBadge({ state }: { state?: string }) {
  return <Badge tone={tones[state ?? ''] ?? 'muted'}>{state ?? 'Unknown'}</Badge>;
}

/** A Flux object's Ready condition as one word; suspended ones say so first. */
export function fluxState(o: { ready: string; reconciling: boolean; suspended: boolean }): string {
  if (o.suspended) return 'Suspended';
  if (o.reconciling) return 'Reconciling';
  return o.ready === 'True' ? 'Ready' : o.ready === 'False' ? 'Failed' : 'Unknown';
}
