import { AppError } from '@binnacle/common/server';
import type { ServerVersion } from '../../kube/cluster.ts';

/** Where an API version stands against the release upgraded to (docs/upgrade-readiness.md). */
export type ReadinessStatus = 'already-removed' | 'removed-in-target' | 'deprecated';

/** The minor of a `1.N` release. */
const minorOf = (release: string) => Number(release.split('.')[1]);

/**
 * The cluster's release as `1.N`, from `/version`: `minor` may carry a provider's suffix (`30+` on EKS), so the
 * digits of gitVersion decide.
 */
export function currentRelease(version: ServerVersion | undefined): string {
  const match = /^v?(\d+)\.(\d+)/.exec(version?.gitVersion ?? '');
  if (!match)
    throw new AppError('not_ready', 'the Kubernetes version is not known yet: the agent is connecting');
  return `${match[1]}.${Number(match[2])}`;
}

/** The next minor after the current one: the upgrade people plan (Kubernetes upgrades one minor at a time). */
export const nextRelease = (current: string) => `1.${minorOf(current) + 1}`;

/**
 * Already removed on the cluster's release, removed by the target, or deprecated (removed later, or never
 * scheduled: a CRD's deprecated version, a deprecated API the API server names without a removal release).
 */
export function readinessStatus(
  removedIn: string | undefined,
  current: string,
  target: string,
): ReadinessStatus {
  if (removedIn === undefined) return 'deprecated';
  const removed = minorOf(removedIn);
  if (removed <= minorOf(current)) return 'already-removed';
  return removed <= minorOf(target) ? 'removed-in-target' : 'deprecated';
}
