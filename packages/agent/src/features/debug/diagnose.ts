import { AppError } from '@binnacle/common/server';
import { resourceKey } from '../../kube/discovery.ts';
import type { DebugContext } from './module.ts';

/**
 * Why did a change not show up? Walks the pipeline for one object: is the kind served and cached, has its
 * informer synced, is the object in the cache, what did the timeline record, what was dropped and why.
 */
export async function diagnoseObject(
  ctx: DebugContext,
  kind: string,
  namespace: string | undefined,
  name: string,
) {
  let resource: ReturnType<DebugContext['cluster']['resolve']>;
  try {
    resource = ctx.cluster.resolve(kind);
  } catch (error) {
    if (error instanceof AppError && (error.code === 'unknown_kind' || error.code === 'ambiguous_kind')) {
      return { kind, verdict: error.message, cached: false, timeline: { count: 0, latest: [] }, drops: [] };
    }
    throw error;
  }
  const informer = ctx.cluster.cache.informer(resource);
  const object = informer?.synced ? informer.get(name, namespace) : undefined;
  const recorded = await ctx.timeline.store.query({
    kinds: [resource.kind],
    namespaces: namespace ? [namespace] : undefined,
    name,
    limit: 20,
  });
  const drops = ctx.timeline
    .stats()
    .recentDrops.filter(
      (d) =>
        d.kind === resource.kind && d.name === name && (namespace === undefined || d.namespace === namespace),
    );
  const cached = ctx.cluster.cache.caches(resource);
  let verdict: string;
  if (!cached)
    verdict = `${resourceKey(resource)} is not cached by the agent, so its changes are not recorded (it is listed live on request)`;
  else if (!informer || informer.state === 'pending' || informer.state === 'syncing')
    verdict = `${resourceKey(resource)} is still loading`;
  else if (!informer.synced)
    verdict = `the agent cannot list ${resourceKey(resource)}: ${informer.lastError?.message ?? informer.state}`;
  else if (drops.length > 0 && recorded.length === 0)
    verdict = `changes were seen but dropped: ${[...new Set(drops.map((d) => d.reason))].join(', ')}`;
  else if (recorded.length > 0)
    verdict = `${recorded.length} change(s) recorded, the latest at ${recorded[0]?.timestamp}`;
  else if (!object)
    verdict = `${resource.kind} ${namespace ? `${namespace}/` : ''}${name} is not in the cache and nothing was recorded for it`;
  else
    verdict =
      'the object is cached but no change of it was recorded (updates that touch only volatile fields are not changes)';
  return {
    kind: resource.kind,
    group: resource.group,
    cached,
    informer: informer
      ? {
          state: informer.state,
          synced: informer.synced,
          count: informer.size,
          error: informer.lastError?.message,
        }
      : undefined,
    object: object
      ? { uid: object.metadata?.uid, resourceVersion: object.metadata?.resourceVersion }
      : undefined,
    timeline: { count: recorded.length, latest: recorded.slice(0, 5) },
    drops,
    verdict,
  };
}
