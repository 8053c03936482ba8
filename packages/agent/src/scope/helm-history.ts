import type { KubeObject } from '@binnacle/common';
import { AppError, parseYamlDocuments, yamlLimits } from '@binnacle/common/server';
import type { AgentContext } from '../context.ts';
import { splitApiVersion } from '../kube/discovery.ts';
import { type LiveHealth, liveHealth } from '../kube/live-health.ts';
import { isReleaseSecret, type ReleaseDecoder, type StoredRelease } from './helm-releases.ts';

// A Helm release's stored revisions and the objects its manifest names, read from the cache: the package manager
// shows and acts on them, GitOps shows what a Flux HelmRelease manages.

export interface ReleaseResource {
  kind: string;
  apiVersion: string;
  namespace?: string;
  name: string;
  /** The object's health from the cache; `missing` when the cache does not hold it, `unknown` for kinds it does not cache. */
  status: LiveHealth;
}

/** Every stored revision of a release, oldest first; 404 when there is none. */
export function releaseRevisions(
  ctx: Pick<AgentContext, 'cluster'>,
  decoder: ReleaseDecoder,
  namespace: string,
  name: string,
): StoredRelease[] {
  const secrets = ctx.cluster.cache
    .list(ctx.cluster.resolve('secrets'), namespace)
    .filter((s) => isReleaseSecret(s) && s.metadata?.labels?.name === name);
  if (secrets.length === 0) throw new AppError('not_found', `no Helm release ${namespace}/${name}`);
  return secrets.map((s) => decoder.decode(s)).sort((a, b) => a.version - b.version);
}

/** One revision of a release (the newest without `revision`); 404 naming the revisions there are. */
export function releaseRevision(revisions: StoredRelease[], revision?: number): StoredRelease {
  const newest = revisions.at(-1) as StoredRelease;
  if (revision === undefined) return newest;
  const found = revisions.find((r) => r.version === revision);
  if (!found)
    throw new AppError(
      'not_found',
      `release ${newest.namespace}/${newest.name} has no revision ${revision} (it has ${revisions.map((r) => r.version).join(', ')})`,
    );
  return found;
}

/** The objects a manifest names, each looked up in the cache for its health. */
export function manifestResources(
  ctx: Pick<AgentContext, 'cluster'>,
  release: StoredRelease,
): ReleaseResource[] {
  const out: ReleaseResource[] = [];
  for (const doc of parseYamlDocuments(release.manifest ?? '', yamlLimits.stored)) {
    const object = doc as KubeObject | null;
    if (!object?.kind || !object.metadata?.name) continue;
    const apiVersion = object.apiVersion ?? 'v1';
    const live = liveHealth(ctx.cluster, {
      group: splitApiVersion(apiVersion).group,
      kind: object.kind,
      name: object.metadata.name,
      namespace: object.metadata.namespace ?? release.namespace,
    });
    out.push({
      kind: object.kind,
      apiVersion,
      namespace: live.namespace,
      name: object.metadata.name,
      status: live.status,
    });
  }
  return out;
}
