import {
  latestRevisions,
  type ReleaseDecoder,
  type ReleaseSummary,
  summarizeRelease,
} from '../../scope/helm-releases.ts';
import type { PkgmgrContext } from './module.ts';

export interface PkgmgrDashboard {
  releases: ReleaseSummary[];
  total: number;
  byStatus: Record<string, number>;
  /** Releases whose Secret could not be decoded (corrupt or foreign). */
  unreadable: { namespace: string; name: string; error: string }[];
}

/**
 * Helm releases (newest revision each) decoded natively from their Secrets in the cache; with namespaces,
 * only those in them (a tunneled caller's: where it may list Secrets).
 */
export function pkgmgrDashboard(
  ctx: PkgmgrContext,
  decoder: ReleaseDecoder,
  namespaces?: string[],
): PkgmgrDashboard {
  const resource = ctx.cluster.resolve('secrets');
  const secrets = namespaces
    ? namespaces.flatMap((ns) => ctx.cluster.cache.list(resource, ns))
    : ctx.cluster.cache.list(resource);
  const releases: ReleaseSummary[] = [];
  const unreadable: PkgmgrDashboard['unreadable'] = [];
  for (const secret of latestRevisions(secrets)) {
    try {
      releases.push(summarizeRelease(decoder.decode(secret)));
    } catch (error) {
      unreadable.push({
        namespace: secret.metadata?.namespace ?? '',
        name: secret.metadata?.name ?? '',
        error: (error as Error).message,
      });
    }
  }
  releases.sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
  const byStatus: Record<string, number> = {};
  for (const release of releases) byStatus[release.status] = (byStatus[release.status] ?? 0) + 1;
  return { releases, total: releases.length, byStatus, unreadable };
}
