import type { Answer } from '../../api/client.ts';

export type ReleaseSummary = Answer<'/api/pkgmgr/releases'>['releases'][number];
export type ReleaseDetail = Answer<'/api/pkgmgr/releases/{namespace}/{name}'>;
export type UpgradeInfo = Answer<'/api/pkgmgr/releases/{namespace}/{name}/upgrade-info'>;

/** One revision of a release's history: the fields of a release summary (the agent's schema leaves them open). */
export type Revision = Pick<
  ReleaseSummary,
  'revision' | 'status' | 'chart' | 'chartVersion' | 'appVersion' | 'description' | 'updated'
>;

export const historyOf = (detail: ReleaseDetail) => detail.history as unknown as Revision[];

/** The path parameters of one release's routes. */
export interface ReleaseRef {
  namespace: string;
  name: string;
}
