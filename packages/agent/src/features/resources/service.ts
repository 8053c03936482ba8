import { codePointOrder, type KubeObject } from '@binnacle/common';
import { AppError, badRequest } from '@binnacle/common/server';
import type { Impersonation } from '../../kube/client.ts';
import { type ApiResource, apiVersionOf, collectionPath, objectPath, scopeOf } from '../../kube/discovery.ts';
import type { KubeList } from '../../kube/objects.ts';
import { stripObject } from '../../kube/objects.ts';
import { parseLabelSelector } from '../../kube/selectors.ts';
import { performAction } from '../../scope/actions.ts';
import { fieldMatcher } from './field-selector.ts';
import type { ResourcesContext } from './module.ts';
import { summarize } from './summary.ts';

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

/**
 * Each object's summary, serialized once: the cache replaces an object when it changes (never mutates it), so
 * an entry keyed by the object cannot go stale, and it goes when the object does.
 */
const summaryJson = new WeakMap<KubeObject, string>();

/** Objects per chunk of a list's JSON: few writes, and no list is ever one string of tens of megabytes. */
const chunkSize = 250;

const summaryJsonOf = (object: KubeObject) => {
  let json = summaryJson.get(object);
  if (json === undefined) {
    json = JSON.stringify(summarize(object));
    summaryJson.set(object, json);
  }
  return json;
};

/**
 * A list as the JSON text the route streams, in chunks of `chunkSize` objects: objects whole, or their summaries
 * (serialized once per object version). Text built per chunk keeps the memory a 10 000-object answer needs
 * small, and a slow client holds the stream back instead of a whole body buffered for it.
 */
export function* listChunks(result: ListResult, summary = false): Generator<string> {
  const { items, ...head } = result;
  const json = summary ? summaryJsonOf : (object: KubeObject) => JSON.stringify(object);
  yield `${JSON.stringify(head).slice(0, -1)},"items":[`;
  for (let start = 0; start < items.length; start += chunkSize) {
    const chunk = items
      .slice(start, start + chunkSize)
      .map(json)
      .join(',');
    yield start === 0 ? chunk : `,${chunk}`;
  }
  yield ']}';
}

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
    items: slice,
    continue: offset + limit < items.length ? encodeToken({ offset: offset + limit }) : undefined,
  };
}

async function liveList(ctx: ResourcesContext, resource: ApiResource, query: ListQuery): Promise<ListResult> {
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
    const list = await ctx.cluster.client.request<KubeList>({
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

/** Lists a kind from the cache (sorted by namespace and name, paged) or, for kinds not cached, from the API server. */
export async function listResources(ctx: ResourcesContext, query: ListQuery): Promise<ListResult> {
  const resource = ctx.cluster.resolve(query.kind, query.group);
  if (!resource.verbs.includes('list')) throw badRequest(`${resource.plural} cannot be listed`);
  const onField = query.fieldSelector ? fieldMatcher(resource, query.fieldSelector) : undefined;
  if (!ctx.cluster.cache.caches(resource)) return liveList(ctx, resource, query);
  const namespaces = resource.namespaced && query.namespaces ? query.namespaces : undefined;
  let items = namespaces
    ? namespaces.flatMap((ns) => ctx.cluster.cache.list(resource, ns))
    : ctx.cluster.cache.list(resource);
  if (query.labelSelector) {
    const matches = parseLabelSelector(query.labelSelector);
    items = items.filter((item) => matches(item.metadata?.labels));
  }
  if (onField) items = items.filter(onField);
  return page(items.sort(byNamespaceAndName), query, resource, 'cache');
}

/** One object, from the cache when the kind is cached, else from the API server. */
export async function getResource(
  ctx: ResourcesContext,
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

/**
 * Deletes an object as an action of the caller (audited, on the timeline unless a dry run); the answer says
 * whether it is gone or still finalizing.
 */
export async function deleteResource(
  ctx: ResourcesContext,
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
  const what = `${resource.kind} ${namespace ? `${namespace}/` : ''}${name}`;
  const target = { kind: resource.kind, group: resource.group, namespace, name };
  return performAction(
    ctx,
    options.as,
    'delete',
    target,
    async () => {
      const answer = await ctx.cluster.client.request<
        KubeObject & { kind?: string; details?: { uid?: string } }
      >({
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
      const status = stillThere ? ('deleting' as const) : ('deleted' as const);
      return {
        status,
        dryRun: Boolean(options.dryRun),
        message: stillThere ? `${what} is being deleted (finalizers)` : `deleted ${what}`,
        uid: answer?.details?.uid ?? answer?.metadata?.uid,
      };
    },
    { dryRun: options.dryRun },
  );
}
