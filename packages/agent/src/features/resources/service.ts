import { AppError, badRequest } from '@binnacle/common/server';
import type { AgentContext } from '../../context.ts';
import type { Impersonation } from '../../kube/client.ts';
import { type ApiResource, apiVersionOf, collectionPath, objectPath, scopeOf } from '../../kube/discovery.ts';
import type { KubeList, KubeObject } from '../../kube/objects.ts';
import { stripObject } from '../../kube/objects.ts';
import { parseLabelSelector } from '../../kube/selectors.ts';
import { summarize } from './summary.ts';

export const listLimit = { default: 500, max: 10_000 };

export interface ListQuery {
  kind: string;
  group?: string;
  namespaces?: string[];
  labelSelector?: string;
  summary?: boolean;
  limit?: number;
  continue?: string;
}

export interface ListResult {
  kind: string;
  group: string;
  apiVersion: string;
  namespaced: boolean;
  /** `cache` when served by the informer cache, `live` when the kind is not cached and was listed now. */
  source: 'cache' | 'live';
  total?: number;
  items: KubeObject[];
  continue?: string;
}

const encodeToken = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
function decodeToken(token: string): { offset?: number; kube?: string } {
  try {
    return JSON.parse(Buffer.from(token, 'base64url').toString()) as { offset?: number; kube?: string };
  } catch {
    throw badRequest('query parameter "continue" is not a token from an earlier page');
  }
}

const byNamespaceAndName = (a: KubeObject, b: KubeObject) =>
  (a.metadata?.namespace ?? '').localeCompare(b.metadata?.namespace ?? '') ||
  (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? '');

function page(
  items: KubeObject[],
  query: ListQuery,
  resource: ApiResource,
  source: 'cache' | 'live',
): ListResult {
  const limit = query.limit ?? listLimit.default;
  const offset = query.continue ? (decodeToken(query.continue).offset ?? 0) : 0;
  const slice = items.slice(offset, offset + limit);
  return {
    kind: resource.kind,
    group: resource.group,
    apiVersion: apiVersionOf(resource),
    namespaced: resource.namespaced,
    source,
    total: items.length,
    items: query.summary ? slice.map(summarize) : slice,
    continue: offset + limit < items.length ? encodeToken({ offset: offset + limit }) : undefined,
  };
}

async function liveList(ctx: AgentContext, resource: ApiResource, query: ListQuery): Promise<ListResult> {
  const limit = query.limit ?? listLimit.default;
  const namespaces = resource.namespaced && query.namespaces ? query.namespaces : [undefined];
  const token = query.continue ? decodeToken(query.continue).kube : undefined;
  if (namespaces.length > 1 && token)
    throw badRequest('query parameter "continue" cannot be used with several namespaces');
  const items: KubeObject[] = [];
  let next: string | undefined;
  for (const namespace of namespaces) {
    const list = await ctx.cluster.client.request<KubeList>({
      path: collectionPath(resource, namespace),
      query: { limit: limit - items.length, continue: token, labelSelector: query.labelSelector },
    });
    items.push(
      ...(list.items ?? []).map((item) =>
        stripObject({ apiVersion: apiVersionOf(resource), kind: resource.kind, ...item }),
      ),
    );
    next = list.metadata?.continue || undefined;
    if (items.length >= limit) break;
  }
  return {
    kind: resource.kind,
    group: resource.group,
    apiVersion: apiVersionOf(resource),
    namespaced: resource.namespaced,
    source: 'live',
    items: query.summary ? items.map(summarize) : items,
    continue: next && namespaces.length === 1 ? encodeToken({ kube: next }) : undefined,
  };
}

/** Lists a kind from the cache (sorted by namespace and name, paged) or, for kinds not cached, from the API server. */
export async function listResources(ctx: AgentContext, query: ListQuery): Promise<ListResult> {
  const resource = ctx.cluster.resolve(query.kind, query.group);
  if (!resource.verbs.includes('list')) throw badRequest(`${resource.plural} cannot be listed`);
  if (!ctx.cluster.cache.caches(resource)) return liveList(ctx, resource, query);
  const namespaces = resource.namespaced && query.namespaces ? query.namespaces : undefined;
  let items = namespaces
    ? namespaces.flatMap((ns) => ctx.cluster.cache.list(resource, ns))
    : ctx.cluster.cache.list(resource);
  if (query.labelSelector) {
    const matches = parseLabelSelector(query.labelSelector);
    items = items.filter((item) => matches(item.metadata?.labels));
  }
  return page(items.sort(byNamespaceAndName), query, resource, 'cache');
}

/** One object, from the cache when the kind is cached, else from the API server. */
export async function getResource(
  ctx: AgentContext,
  kind: string,
  segment: string,
  name: string,
  group?: string,
): Promise<KubeObject> {
  const resource = ctx.cluster.resolve(kind, group);
  const namespace = scopeOf(resource, segment);
  if (ctx.cluster.cache.caches(resource)) {
    const cached = ctx.cluster.cache.get(resource, name, namespace);
    if (!cached)
      throw new AppError(
        'not_found',
        `${resource.kind} ${namespace ? `${namespace}/` : ''}${name} not found`,
      );
    return cached;
  }
  const object = await ctx.cluster.client.request<KubeObject>({
    path: objectPath(resource, name, namespace),
  });
  return stripObject(object);
}

export interface DeleteOptions {
  /** Delete as this caller (impersonated), so the cluster's RBAC decides. */
  as?: Impersonation;
  propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
  gracePeriodSeconds?: number;
  dryRun?: boolean;
}

/** Deletes an object; the answer says whether it is gone or still finalizing. */
export async function deleteResource(
  ctx: AgentContext,
  kind: string,
  segment: string,
  name: string,
  group: string | undefined,
  options: DeleteOptions,
): Promise<{
  kind: string;
  namespace?: string;
  name: string;
  status: 'deleted' | 'deleting';
  dryRun: boolean;
}> {
  const resource = ctx.cluster.resolve(kind, group);
  const namespace = scopeOf(resource, segment);
  const answer = await ctx.cluster.client.request<KubeObject & { kind?: string }>({
    method: 'DELETE',
    as: options.as,
    path: objectPath(resource, name, namespace),
    query: { dryRun: options.dryRun ? 'All' : undefined },
    body: {
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      propagationPolicy: options.propagationPolicy ?? 'Background',
      gracePeriodSeconds: options.gracePeriodSeconds,
    },
  });
  // Kubernetes answers with a Status when the object is gone, with the object when finalizers keep it.
  const stillThere = answer?.kind !== 'Status' && answer?.metadata?.deletionTimestamp !== undefined;
  return {
    kind: resource.kind,
    namespace,
    name,
    status: stillThere ? 'deleting' : 'deleted',
    dryRun: Boolean(options.dryRun),
  };
}
