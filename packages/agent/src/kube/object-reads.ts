import { codePointOrder, type KubeObject } from '@binnacle/common';
import { AppError, badRequest } from '@binnacle/common/server';
import type { Cluster } from './cluster.ts';
import { type ApiResource, apiVersionOf, collectionPath, objectPath, scopeOf } from './discovery.ts';
import { fieldMatcher } from './field-selector.ts';
import { cachedInPart, isPartial, type KubeList, stripObject } from './objects.ts';
import { parseLabelSelector } from './selectors.ts';

/** Objects per page of a list: the default, and the most one page holds. */
export const listLimit = { default: 500, max: 10_000 };

export interface ListQuery {
  kind: string;
  group?: string;
  namespaces?: string[];
  labelSelector?: string;
  /** Checked against `fieldSelectorPattern` by the route. */
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  /**
   * Only the objects' summaries will be served: a kind the cache keeps in part (ADR 0131) is listed from the cache
   * too; otherwise from the API server, whole.
   */
  summary?: boolean;
}

export interface ListResult {
  kind: string;
  group: string;
  apiVersion: string;
  namespaced: boolean;
  /**
   * `cache` when served by the informer cache, `live` when the kind is not cached and was listed now, `history` when
   * the objects are as they were at a past moment (time travel).
   */
  source: 'cache' | 'live' | 'history';
  total?: number;
  items: KubeObject[];
  continue?: string;
}

const encodeToken = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** Where the next page starts: an offset in the cache's list, or (live) a namespace and the API server's token. */
interface PageToken {
  offset?: number;
  namespace?: string;
  kube?: string;
}
function decodeToken(token: string): PageToken {
  try {
    return JSON.parse(Buffer.from(token, 'base64url').toString()) as PageToken;
  } catch {
    throw badRequest('query parameter "continue" is not a token from an earlier page');
  }
}

const byNamespaceAndName = (a: KubeObject, b: KubeObject) =>
  codePointOrder(a.metadata?.namespace ?? '', b.metadata?.namespace ?? '') ||
  codePointOrder(a.metadata?.name ?? '', b.metadata?.name ?? '');

function page(
  items: KubeObject[],
  query: ListQuery,
  resource: ApiResource,
  source: ListResult['source'],
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
    items: slice,
    continue: offset + limit < items.length ? encodeToken({ offset: offset + limit }) : undefined,
  };
}

async function liveList(cluster: Cluster, resource: ApiResource, query: ListQuery): Promise<ListResult> {
  const limit = query.limit ?? listLimit.default;
  const namespaces: (string | undefined)[] =
    resource.namespaced && query.namespaces ? query.namespaces : [undefined];
  // Several namespaces are listed one after the other; a page's token names the namespace to go on in.
  const token = query.continue ? decodeToken(query.continue) : undefined;
  const first = token?.namespace === undefined ? 0 : namespaces.indexOf(token.namespace);
  if (first < 0) throw badRequest('query parameter "continue" is from a list of other namespaces');
  const items: KubeObject[] = [];
  let next: PageToken | undefined;
  for (let index = first; index < namespaces.length; index++) {
    const namespace = namespaces[index];
    const list = await cluster.client.request<KubeList>({
      path: collectionPath(resource, namespace),
      query: {
        limit: limit - items.length,
        continue: index === first ? token?.kube : undefined,
        labelSelector: query.labelSelector,
        fieldSelector: query.fieldSelector,
      },
    });
    items.push(
      ...(list.items ?? []).map((item) =>
        stripObject({ apiVersion: apiVersionOf(resource), kind: resource.kind, ...item }),
      ),
    );
    // The API server stops a list early only at the limit asked, so either way this page is full.
    const more = list.metadata?.continue || undefined;
    if (more) next = { namespace, kube: more };
    else if (items.length >= limit && index + 1 < namespaces.length)
      next = { namespace: namespaces[index + 1] };
    if (next || items.length >= limit) break;
  }
  return {
    kind: resource.kind,
    group: resource.group,
    apiVersion: apiVersionOf(resource),
    namespaced: resource.namespaced,
    source: 'live',
    items,
    continue: next ? encodeToken(next) : undefined,
  };
}

/** A kind's objects as they were at some past moment, instead of the cache's (time travel). */
export type PastObjects = (resource: ApiResource, namespaces: string[] | undefined) => KubeObject[];

/**
 * Lists a kind from the cache (sorted by namespace and name, paged) or, for kinds not cached, from the API server;
 * with `past`, from the objects as they were then, filtered, sorted and paged as the cache's are.
 */
export async function listResources(
  cluster: Cluster,
  query: ListQuery,
  past?: PastObjects,
): Promise<ListResult> {
  const resource = cluster.resolve(query.kind, query.group);
  if (!resource.verbs.includes('list'))
    throw new AppError('unknown_kind', `${resource.plural} cannot be listed: the route takes kinds that can`);
  const onField = query.fieldSelector ? fieldMatcher(resource, query.fieldSelector) : undefined;
  const cachedWhole =
    cluster.cache.caches(resource) && (query.summary || !cachedInPart(resource.group, resource.kind));
  if (!past && !cachedWhole) return liveList(cluster, resource, query);
  const namespaces = resource.namespaced && query.namespaces ? query.namespaces : undefined;
  let items = past
    ? past(resource, namespaces)
    : namespaces
      ? namespaces.flatMap((ns) => cluster.cache.list(resource, ns))
      : cluster.cache.list(resource);
  if (query.labelSelector) {
    const matches = parseLabelSelector(query.labelSelector);
    items = items.filter((item) => matches(item.metadata?.labels));
  }
  if (onField) items = items.filter(onField);
  return page(items.sort(byNamespaceAndName), query, resource, past ? 'history' : 'cache');
}

/** One object, from the cache when the cache keeps it whole, else from the API server. */
export async function getResource(
  cluster: Cluster,
  kind: string,
  segment: string,
  name: string,
  group?: string,
): Promise<KubeObject> {
  const resource = cluster.resolve(kind, group);
  const namespace = scopeOf(resource, segment);
  if (cluster.cache.caches(resource)) {
    const cached = cluster.cache.get(resource, name, namespace);
    if (!cached)
      throw new AppError(
        'not_found',
        `${resource.kind} ${namespace ? `${namespace}/` : ''}${name} not found`,
      );
    if (!isPartial(cached)) return cached;
  }
  const object = await cluster.client.request<KubeObject>({
    path: objectPath(resource, name, namespace),
  });
  return stripObject(object);
}
