import { type KubeObject, searchLimits } from '@binnacle/common';
import { badRequest } from '@binnacle/common/server';
import { requireAccess } from '../../http/caller.ts';
import { visibleNamespaces } from '../../http/caller-view.ts';
import type { Impersonation } from '../../kube/client.ts';
import { type ApiResource, resourceKey } from '../../kube/discovery.ts';
import { compactLine } from '../../kube/object-line.ts';
import { isSensitiveName, redactObject } from '../../scope/redact.ts';
import type { ResourcesContext } from './module.ts';

export interface SearchQuery {
  /** Words that must all appear (case-insensitive) in the name, namespace, kind, a label or an annotation value. */
  query: string;
  limit?: number;
  namespace?: string;
  kind?: string;
  group?: string;
  /** A past moment (ms): the objects as they were then (time travel). */
  at?: number;
}

export interface SearchHit {
  kind: string;
  group: string;
  namespace?: string;
  name: string;
  /** One line: `Pod shop/web-1: Running, 1/1 ready, 0 restarts (healthy, 3h)`, redacted. */
  summary: string;
}

export interface SearchResult {
  /** Hits the caller may see, before `limit`. */
  total: number;
  hits: SearchHit[];
  /** Kinds still loading (`plural.group`): their objects are not searched yet. */
  loading: string[];
  /** With `at`: kinds whose kept past cannot say (a kind synced since the moment): not searched. */
  notKept?: string[];
}

/** Events name the objects they are about: they would bury every hit under their own. */
const unlessAsked = new Set(['Event']);
/** Annotations that copy the object as applied (a Secret's data included): never searched. */
const copying = 'kubectl.kubernetes.io/last-applied-configuration';

/** The texts a query's words are looked for in. Secrets' annotations and credential-named ones are left out. */
function searchable(resource: ApiResource, object: KubeObject): string[] {
  const labels = Object.entries(object.metadata?.labels ?? {});
  const annotations =
    resource.kind === 'Secret'
      ? []
      : Object.entries(object.metadata?.annotations ?? {})
          .filter(([key]) => key !== copying && !isSensitiveName(key))
          .map(([, value]) => value);
  return [
    object.metadata?.name ?? '',
    object.metadata?.namespace ?? '',
    resource.kind,
    ...labels.map(([key, value]) => `${key}=${value}`),
    ...annotations,
  ].map((text) => text.toLowerCase());
}

/** How well an object's name answers the words: 0 a name asked for, 1 a name starting so, 2 containing, 3 elsewhere. */
function rank(name: string, words: string[]): number {
  const lower = name.toLowerCase();
  if (words.includes(lower)) return 0;
  if (words.some((w) => lower.startsWith(w))) return 1;
  return words.some((w) => lower.includes(w)) ? 2 : 3;
}

function wordsOf(query: string): string[] {
  if (query.length > searchLimits.maxQueryChars)
    throw badRequest(`query is longer than ${searchLimits.maxQueryChars} characters`);
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) throw badRequest('query must name something to look for');
  return words;
}

/**
 * The kinds searched: every cached kind but events, or the one asked for, which answers as its list would (503
 * while it loads, 403 when it cannot be read).
 */
async function kindsToSearch(
  ctx: ResourcesContext,
  caller: Impersonation | undefined,
  query: SearchQuery,
): Promise<ApiResource[]> {
  if (!query.kind) return ctx.cluster.cache.resources.filter((r) => !unlessAsked.has(r.kind));
  const resource = ctx.cluster.resolve(query.kind, query.group);
  if (!ctx.cluster.cache.caches(resource))
    throw badRequest(`${resource.plural} are not cached, so not searched: list them instead`);
  if (!resource.namespaced && query.namespace)
    throw badRequest(`${resource.plural} are cluster-scoped: leave namespace out`);
  ctx.cluster.cache.list(resource, query.namespace);
  // Without a namespace, hits are kept where the caller may list the kind (visibleTo): no one review decides.
  if (!resource.namespaced || query.namespace)
    await requireAccess(ctx, caller, {
      verb: 'list',
      group: resource.group,
      resource: resource.plural,
      namespace: query.namespace,
    });
  return [resource];
}

/** Whether the caller may list the kind where each object is (one access review per kind and namespace). */
async function visibleTo(
  ctx: ResourcesContext,
  caller: Impersonation | undefined,
  resource: ApiResource,
  objects: KubeObject[],
): Promise<KubeObject[]> {
  if (!caller) return objects;
  const listing = { group: resource.group, resource: resource.plural };
  if (!resource.namespaced)
    return (await ctx.access.allowed(caller, { verb: 'list', ...listing })) ? objects : [];
  const namespaces = [...new Set(objects.map((o) => o.metadata?.namespace ?? ''))];
  const allowed = await visibleNamespaces(ctx, caller, listing, namespaces);
  return allowed ? objects.filter((o) => allowed.includes(o.metadata?.namespace ?? '')) : objects;
}

/**
 * Free-text search over the cache: objects whose name, namespace, kind, labels (`key=value`) or annotation values
 * contain every word of the query, best name matches first, each as a redacted one-line summary. Only kinds the
 * caller may list, where it may list them, count; each kind with a match costs one access review per namespace.
 */
export async function searchObjects(
  ctx: ResourcesContext,
  caller: Impersonation | undefined,
  query: SearchQuery,
  now = Date.now(),
): Promise<SearchResult> {
  const words = wordsOf(query.query);
  const limit = Math.min(query.limit ?? searchLimits.defaultLimit, searchLimits.maxLimit);
  ctx.cluster.resources();
  const { at } = query;
  if (at !== undefined) ctx.history.refuseUnknown(at);
  const loading: string[] = [];
  const notKept: string[] = [];
  const found: { resource: ApiResource; object: KubeObject; rank: number }[] = [];
  for (const resource of await kindsToSearch(ctx, caller, query)) {
    if (query.namespace && !resource.namespaced) continue;
    const informer = ctx.cluster.cache.informer(resource);
    if (!informer?.synced) {
      if (ctx.cluster.cache.caches(resource) && informer?.state !== 'forbidden')
        loading.push(resourceKey(resource));
      continue;
    }
    const namespace = query.namespace;
    const objects =
      at === undefined
        ? informer.list(namespace)
        : ctx.history.listKept(resource, at, namespace ? [namespace] : undefined);
    if (!objects) {
      notKept.push(resourceKey(resource));
      continue;
    }
    const matching = objects.filter((object) => {
      const texts = searchable(resource, object);
      return words.every((word) => texts.some((text) => text.includes(word)));
    });
    for (const object of await visibleTo(ctx, caller, resource, matching))
      found.push({ resource, object, rank: rank(object.metadata?.name ?? '', words) });
  }
  found.sort(
    (a, b) =>
      a.rank - b.rank ||
      a.resource.kind.localeCompare(b.resource.kind) ||
      (a.object.metadata?.namespace ?? '').localeCompare(b.object.metadata?.namespace ?? '') ||
      (a.object.metadata?.name ?? '').localeCompare(b.object.metadata?.name ?? ''),
  );
  return {
    total: found.length,
    hits: found.slice(0, limit).map(({ resource, object }) => ({
      kind: resource.kind,
      group: resource.group,
      ...(object.metadata?.namespace ? { namespace: object.metadata.namespace } : {}),
      name: object.metadata?.name ?? '',
      summary: compactLine(redactObject({ ...object, kind: resource.kind }), at ?? now),
    })),
    loading,
    ...(at === undefined ? {} : { notKept }),
  };
}
