import { type CallerView, countInView } from '../../http/caller-view.ts';
import { resourceKey } from '../../kube/discovery.ts';
import type { ResourcesContext } from './module.ts';

export interface ApiResourceView {
  group: string;
  version: string;
  kind: string;
  name: string;
  singular: string;
  namespaced: boolean;
  verbs: string[];
  shortNames: string[];
  categories: string[];
  /** True when list reads come from the agent's cache. */
  cached: boolean;
}

export function apiResources(ctx: ResourcesContext): ApiResourceView[] {
  return ctx.cluster.resources().map((r) => ({
    group: r.group,
    version: r.version,
    kind: r.kind,
    name: r.plural,
    singular: r.singular,
    namespaced: r.namespaced,
    verbs: r.verbs,
    shortNames: r.shortNames,
    categories: r.categories,
    cached: ctx.cluster.cache.caches(r),
  }));
}

export interface NamespaceView {
  name: string;
  status: string;
  labels: Record<string, string>;
  createdAt?: string;
}

export function namespaces(ctx: ResourcesContext, view: CallerView): NamespaceView[] {
  const shown = view.namespaces && new Set(view.namespaces);
  return ctx.cluster.cache
    .list(ctx.cluster.resolve('namespaces'))
    .filter((ns) => !shown || shown.has(ns.metadata?.name ?? ''))
    .map((ns) => ({
      name: ns.metadata?.name ?? '',
      status: String(ns.status?.phase ?? 'Active'),
      labels: ns.metadata?.labels ?? {},
      createdAt: ns.metadata?.creationTimestamp,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export interface ResourceCount {
  kind: string;
  group: string;
  name: string;
  namespaced: boolean;
  count: number;
}

/**
 * Object counts per cached kind in the caller's view (with namespaces: namespaced kinds only, counted in
 * them); kinds still loading are listed apart. With `at`, the counts as they were then (time travel), and the
 * kinds whose kept past cannot say (`notKept`: Events, a kind synced since) apart.
 */
export function resourceCounts(
  ctx: ResourcesContext,
  view: CallerView,
  at?: number,
): { counts: ResourceCount[]; loading: string[]; notKept?: string[] } {
  const counts: ResourceCount[] = [];
  const loading: string[] = [];
  const notKept: string[] = [];
  if (at !== undefined) ctx.history.refuseUnknown(at);
  for (const resource of ctx.cluster.resources()) {
    const informer = ctx.cluster.cache.informer(resource);
    if (!ctx.cluster.cache.caches(resource)) continue;
    if (!informer?.synced) {
      if (informer?.state !== 'forbidden') loading.push(resourceKey(resource));
      continue;
    }
    if (view.hiddenKinds.includes(resource.kind) || (view.namespaces && !resource.namespaced)) continue;
    const count =
      at === undefined
        ? countInView(informer, resource.namespaced, view)
        : ctx.history.countAt(resource, at, resource.namespaced ? view.namespaces : undefined);
    if (count === undefined) {
      notKept.push(resourceKey(resource));
      continue;
    }
    counts.push({
      kind: resource.kind,
      group: resource.group,
      name: resource.plural,
      namespaced: resource.namespaced,
      count,
    });
  }
  return { counts, loading, ...(at === undefined ? {} : { notKept }) };
}
