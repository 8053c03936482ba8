import type { Cluster } from './cluster.ts';
import { type Health, healthOf } from './health.ts';

/** An object's health as the cache sees it: `missing` when its kind is synced but it is not there. */
export type LiveHealth = Health | 'missing';

/**
 * The health of an object named by group, kind, name and namespace (ignored for a cluster-scoped kind), from the
 * cache: `unknown` for a kind the agent does not cache or still loads, `missing` when the cache lacks it.
 */
export function liveHealth(
  cluster: Cluster,
  ref: { group: string; kind: string; name: string; namespace?: string },
): { namespace?: string; status: LiveHealth } {
  const resource = cluster.find(ref.group, ref.kind);
  const namespace = resource?.namespaced === false ? undefined : ref.namespace;
  const informer = resource ? cluster.cache.informer(resource) : undefined;
  if (!informer?.synced) return { namespace, status: 'unknown' };
  const cached = informer.get(ref.name, namespace);
  return { namespace, status: cached ? healthOf(cached) : 'missing' };
}
