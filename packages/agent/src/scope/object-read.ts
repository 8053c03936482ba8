import type { KubeObject } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import type { AgentContext } from '../context.ts';
import { requireAccess } from '../http/caller.ts';
import type { Impersonation } from '../kube/client.ts';
import { type ApiResource, scopeOf } from '../kube/discovery.ts';
import { getResource } from '../kube/object-reads.ts';
import type { ClusterHistory } from './history/cluster-history.ts';

/**
 * One object as the caller may read it (`get` on its kind, checked first): from the cache or the API server, or as
 * it was at a past moment (`at`, time travel). Cluster-scoped objects use `_` as namespace.
 */
export async function readObject(
  ctx: Pick<AgentContext, 'access' | 'cluster' | 'history'>,
  caller: Impersonation | undefined,
  object: { kind: string; group?: string; namespace: string; name: string; at?: number },
): Promise<KubeObject> {
  const resource = ctx.cluster.resolve(object.kind, object.group);
  await requireAccess(ctx, caller, {
    verb: 'get',
    group: resource.group,
    resource: resource.plural,
    namespace: scopeOf(resource, object.namespace),
  });
  if (object.at !== undefined)
    return pastObject(ctx.history, resource, object.namespace, object.name, object.at);
  return getResource(ctx.cluster, object.kind, object.namespace, object.name, object.group);
}

export function pastObject(
  history: ClusterHistory,
  resource: ApiResource,
  segment: string,
  name: string,
  at: number,
): KubeObject {
  const namespace = scopeOf(resource, segment);
  const object = history.getAt(resource, namespace, name, at);
  if (!object)
    throw new AppError(
      'not_found',
      `${resource.kind} ${namespace ? `${namespace}/` : ''}${name} did not exist at ${new Date(at).toISOString()}`,
    );
  return object;
}
