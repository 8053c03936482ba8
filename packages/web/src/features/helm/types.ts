import type { Answer } from '../../api/client.ts';

export type ReleaseSummary = Answer<'/api/pkgmgr/releases'>['releases'][number];
export type ReleaseDetail = Answer<'/api/pkgmgr/releases/{namespace}/{name}'>;
export type UpgradeInfo = Answer<'/api/pkgmgr/releases/{namespace}/{name}/upgrade-info'>;

/** One revision of a release's history. */
export type Revision = ReleaseDetail['history'][number];

/** The path parameters of one release's routes. */
export interface ReleaseRef {
  namespace: string;
  name: string;
}
