import type { Answer } from '../../api/client.ts';
import { age } from '../../ui/states.tsx';

export type ReleaseSummary = Answer<'/api/pkgmgr/releases'>['releases'][number];
export type ReleaseDetail = Answer<'/api/pkgmgr/releases/{namespace}/{name}'>;
export type UpgradeInfo = Answer<'/api/pkgmgr/releases/{namespace}/{name}/upgrade-info'>;

/** One revision of a release's history: the fields of a release summary (the agent's schema leaves them open). */
export type Revision = Pick<
  ReleaseSummary,
  'revision' | 'status' | 'chart' | 'chartVersion' | 'appVersion' | 'description' | 'updated'
>;

export const historyOf = (detail: ReleaseDetail) => detail.history as unknown as Revision[];

/** `3m ago` from an RFC 3339 time, `—` without one. */
export function ago(iso: string | undefined, now = Date.now()): string {
  const at = Date.parse(iso ?? '');
  return Number.isNaN(at) ? '—' : `${age((now - at) / 1000)} ago`;
}

/** The path parameters of one release's routes. */
export interface ReleaseRef {
  namespace: string;
  name: string;
}
