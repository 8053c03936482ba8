import { type KubeObject, mapConcurrently } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import type { AccessReviewer } from '../kube/access-review.ts';
import type { Impersonation } from '../kube/client.ts';
import type { Cluster } from '../kube/cluster.ts';
import { type ApiResource, resourceKey } from '../kube/discovery.ts';
import { groupsOf, requireAccess } from './caller.ts';

/** What a tunneled caller may see of the cache's cluster-wide views (topology, timeline, dashboard …). */
export interface CallerView {
  /** The namespaces to show; undefined: every namespace. Empty: none (never "no filter"). */
  namespaces?: string[];
  /** Kinds left out: Secrets the caller may not list, and cluster-scoped kinds it may not list. */
  hiddenKinds: string[];
}

const reviewsAtOnce = 16;

async function filterInParallel<T>(items: readonly T[], keep: (item: T) => Promise<boolean>): Promise<T[]> {
  const kept = await mapConcurrently(items, reviewsAtOnce, keep);
  return items.filter((_, index) => kept[index]);
}

/** What a caller's view reads: the served cluster's cache, the access reviews, the namespace the agent watches. */
export interface ViewSource {
  readonly cluster: Cluster;
  readonly access: AccessReviewer;
  config: { namespace?: string };
}

const cachedNamespaces = (ctx: Pick<ViewSource, 'cluster'>) =>
  ctx.cluster.cache.list(ctx.cluster.resolve('namespaces')).map((ns) => ns.metadata?.name ?? '');

/**
 * The namespaces in which the caller may list a resource: undefined when it may list it cluster-wide (then the
 * requested namespaces, if any, stand), else the requested (or all known) namespaces it may list it in, each
 * asked of the API server's authorizer (SubjectAccessReview, cached a few seconds).
 */
export async function visibleNamespaces(
  ctx: Pick<ViewSource, 'cluster' | 'access'>,
  caller: Impersonation | undefined,
  resource: { group: string; resource: string },
  requested: string[] | undefined,
): Promise<string[] | undefined> {
  if (!caller) return requested;
  const may = (namespace?: string) => ctx.access.allowed(caller, { verb: 'list', ...resource, namespace });
  if (await may()) return requested;
  return filterInParallel(requested ?? cachedNamespaces(ctx), may);
}

/**
 * The namespaces a list of a kind covers for the caller. Named namespaces (or a cluster-scoped kind) the
 * caller may not list are a 403; without names, a namespaced kind is listed in the namespaces the caller may
 * list it in (possibly none: an empty list).
 */
export async function namespacesToList(
  ctx: Pick<ViewSource, 'cluster' | 'access'>,
  caller: Impersonation | undefined,
  resource: ApiResource,
  requested: string[] | undefined,
): Promise<string[] | undefined> {
  const listing = { verb: 'list', group: resource.group, resource: resource.plural };
  if (!resource.namespaced) await requireAccess(ctx, caller, listing);
  else if (requested) {
    await Promise.all(requested.map((namespace) => requireAccess(ctx, caller, { ...listing, namespace })));
  } else return visibleNamespaces(ctx, caller, listing, undefined);
  return requested;
}

/**
 * The view of a tunneled caller, at namespace granularity as Kubernetes dashboards do it: a namespace is shown
 * when the caller may list its pods; Secrets only when it may list them wherever it looks; cluster-scoped kinds
 * only when it may list them. Without a caller (the agent's own users) everything requested is shown.
 */
export async function callerView(
  ctx: Pick<ViewSource, 'cluster' | 'access'>,
  caller: Impersonation | undefined,
  requested?: string[],
): Promise<CallerView> {
  if (!caller) return { namespaces: requested, hiddenKinds: [] };
  const namespaces = await visibleNamespaces(ctx, caller, { group: '', resource: 'pods' }, requested);
  const secrets = await visibleNamespaces(ctx, caller, { group: '', resource: 'secrets' }, namespaces);
  const secretsHidden =
    namespaces === undefined ? secrets !== undefined : (secrets?.length ?? 0) < namespaces.length;
  const clusterScoped = ctx.cluster.cache.resources.filter((r) => !r.namespaced);
  const unlisted = await filterInParallel(
    clusterScoped,
    async (r) => !(await ctx.access.allowed(caller, { verb: 'list', group: r.group, resource: r.plural })),
  );
  return {
    namespaces,
    hiddenKinds: [...(secretsHidden ? ['Secret'] : []), ...unlisted.map((r) => r.kind)],
  };
}

/** A 403 naming who and what when an object of this kind and namespace is outside the caller's view. */
export function requireVisible(
  caller: Impersonation | undefined,
  view: CallerView,
  kind: string,
  namespace: string | undefined,
): void {
  if (!caller) return;
  const outside =
    view.hiddenKinds.includes(kind) ||
    (namespace !== undefined && view.namespaces !== undefined && !view.namespaces.includes(namespace));
  if (outside)
    throw new AppError(
      'forbidden',
      `${caller.user} may not see ${kind} objects${namespace ? ` in namespace ${namespace}` : ' cluster-wide'}${groupsOf(caller)}`,
    );
}

/** How many objects of a synced informer the view shows. */
export function countInView(
  informer: { size: number; list(namespace?: string): unknown[] },
  namespaced: boolean,
  view: CallerView,
): number {
  if (!namespaced || !view.namespaces) return informer.size;
  return view.namespaces.reduce((sum, ns) => sum + informer.list(ns).length, 0);
}

/**
 * Reads the cache through a caller's view for aggregate pages (dashboard, packages): `get` answers the cached
 * objects of a kind the view shows, and an empty list for a kind not served, hidden, or still loading — those
 * still loading are named in `loading` (as `plural.group`), so a page can say what it is waiting for.
 */
export function viewReader(ctx: ViewSource, view: CallerView) {
  const loading: string[] = [];
  const get = (group: string, kind: string): KubeObject[] => {
    const resource = ctx.cluster.find(group, kind);
    if (!resource) return [];
    const informer = ctx.cluster.cache.informer(resource);
    if (!informer?.synced) {
      if (informer?.state !== 'forbidden') loading.push(resourceKey(resource));
      return [];
    }
    if (view.hiddenKinds.includes(resource.kind)) return [];
    if (!resource.namespaced) return informer.list();
    // The cache holds only the namespaces the agent watches: without a view's, all it holds.
    return view.namespaces ? view.namespaces.flatMap((ns) => informer.list(ns)) : informer.list();
  };
  return { get, loading };
}
