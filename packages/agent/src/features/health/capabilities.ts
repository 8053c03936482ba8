import { callerView, visibleNamespaces } from '../../http/caller-view.ts';
import type { AccessAttributes } from '../../kube/access-review.ts';
import type { Impersonation } from '../../kube/client.ts';
import type { HealthContext } from './module.ts';

const checks = {
  exec: { verb: 'create', resource: 'pods', subresource: 'exec' },
  logs: { verb: 'get', resource: 'pods', subresource: 'log' },
  portForward: { verb: 'create', resource: 'pods', subresource: 'portforward' },
  secrets: { verb: 'list', resource: 'secrets' },
  deployments: { verb: 'patch', resource: 'deployments', group: 'apps' },
  statefulSets: { verb: 'patch', resource: 'statefulsets', group: 'apps' },
  daemonSets: { verb: 'patch', resource: 'daemonsets', group: 'apps' },
  nodes: { verb: 'patch', resource: 'nodes' },
  debugContainers: { verb: 'patch', resource: 'pods', subresource: 'ephemeralcontainers' },
} satisfies Record<string, Omit<AccessAttributes, 'group' | 'namespace'> & { group?: string }>;

type CheckName = keyof typeof checks;

/** A Kubernetes identity as the API server sees it. */
export interface Identity {
  user: string;
  groups: string[];
}

/** How much of a kind an identity may list: everywhere asked, in some namespaces, nowhere. */
export type Listing = 'all' | 'some' | 'none';

/** What the caller may do with one kind (`?kind=`), in the namespace asked or cluster-wide. */
export interface KindAccess {
  kind: string;
  group: string;
  namespaced: boolean;
  list: Listing;
  update: boolean;
  delete: boolean;
}

export interface Capabilities {
  exec: boolean;
  logs: boolean;
  portForward: boolean;
  secrets: boolean;
  debugContainers: boolean;
  workloadWrites: { deployments: boolean; statefulSets: boolean; daemonSets: boolean };
  nodeWrites: boolean;
  localTerminal: boolean;
  authEnabled: boolean;
  deployment: { mode: HealthContext['mode'] };
  namespace?: string;
  /** Who the agent asks the API server as for this caller: the caller impersonated, or the agent itself. */
  identity: Identity & { impersonated: boolean };
  /** The agent's own credentials, which fill its cache: a kind they may not list nobody sees through it. */
  agent: Identity;
  /** What the cluster-wide views (dashboard, topology, timeline …) show this caller (ADR 0011, ADR 0065). */
  view: { namespaces?: string[]; hiddenKinds: string[]; unreadableKinds: string[] };
  kind?: KindAccess;
}

/** Kinds whose informer the API server refused the agent's own identity: its cache holds none of them. */
const unreadableKinds = (ctx: HealthContext): string[] => [
  ...new Set(
    ctx.cluster.cache
      .kinds()
      .filter((k) => k.state === 'forbidden')
      .map((k) => k.kind),
  ),
];

function listingOf(namespaces: string[] | undefined, asked: number | undefined): Listing {
  if (namespaces === undefined) return 'all';
  if (namespaces.length === 0) return 'none';
  return asked !== undefined && namespaces.length === asked ? 'all' : 'some';
}

/**
 * One kind for the caller: whether it may list it (a namespaced kind is asked per namespace when it may not list
 * it cluster-wide, as its tables would be), change and delete it, in `namespace` or cluster-wide. The agent's own
 * listing is its cache's: none when the API server refused its informer.
 */
async function kindAccess(
  ctx: HealthContext,
  kind: { name: string; group?: string },
  namespace: string | undefined,
  as: Impersonation | undefined,
  unreadable: string[],
): Promise<KindAccess> {
  const resource = ctx.cluster.resolve(kind.name, kind.group);
  const scope = resource.namespaced ? namespace : undefined;
  const on = { group: resource.group, resource: resource.plural };
  const watched = ctx.cluster.cache.namespaces;
  const listing = async (): Promise<Listing> => {
    if (unreadable.includes(resource.kind)) return 'none';
    // Watching namespaces (ADR 0121), the agent's own listing is its cache's: the kind in those namespaces.
    if (!as && watched && resource.namespaced) {
      if (scope) return watched.includes(scope) ? 'all' : 'none';
      return 'some';
    }
    if (!as || !resource.namespaced) {
      return (await ctx.access.allowed(as, { verb: 'list', ...on, namespace: scope })) ? 'all' : 'none';
    }
    const asked = scope ? [scope] : undefined;
    return listingOf(await visibleNamespaces(ctx, as, on, asked), asked?.length);
  };
  const [list, update, remove] = await Promise.all([
    listing(),
    ctx.access.allowed(as, { verb: 'patch', ...on, namespace: scope }),
    ctx.access.allowed(as, { verb: 'delete', ...on, namespace: scope }),
  ]);
  return {
    kind: resource.kind,
    group: resource.group,
    namespaced: resource.namespaced,
    list,
    update,
    delete: remove,
  };
}

/**
 * What the UI may offer, from access reviews (the agent's own, or a tunneled caller's; see AccessReviewer) and
 * the agent's mode: port-forward listens on the agent's host, so it is off in a cluster, as is the local
 * terminal (also off with --disable-local-terminal); neither is served to tunneled callers. It also names the
 * identity the agent acts as and what the cache's views show it, so a page can say "you may not" rather than
 * show an empty list (ADR 0065).
 */
export async function capabilities(
  ctx: HealthContext,
  query: { namespace?: string; kind?: string; group?: string },
  as?: Impersonation,
): Promise<Capabilities> {
  const { namespace } = query;
  const names = Object.keys(checks) as CheckName[];
  const unreadable = unreadableKinds(ctx);
  const [results, self, view, kind] = await Promise.all([
    Promise.all(names.map((name) => ctx.access.allowed(as, { group: '', ...checks[name], namespace }))),
    ctx.cluster.identity(),
    as
      ? callerView(ctx, as, namespace ? [namespace] : undefined)
      : { namespaces: unreadable.includes('Pod') ? [] : undefined, hiddenKinds: [] },
    query.kind
      ? kindAccess(ctx, { name: query.kind, group: query.group }, namespace, as, unreadable)
      : undefined,
  ]);
  const can = Object.fromEntries(names.map((name, i) => [name, results[i] === true])) as Record<
    CheckName,
    boolean
  >;
  const local = ctx.mode === 'local' && !as;
  const agent = { user: self.user, groups: [...self.groups] };
  return {
    exec: can.exec,
    logs: can.logs,
    portForward: can.portForward && local,
    secrets: can.secrets,
    debugContainers: can.debugContainers,
    workloadWrites: {
      deployments: can.deployments,
      statefulSets: can.statefulSets,
      daemonSets: can.daemonSets,
    },
    nodeWrites: can.nodes,
    localTerminal: local && !ctx.config.disableLocalTerminal,
    authEnabled: Boolean(as),
    deployment: { mode: ctx.mode },
    namespace,
    identity: as
      ? { user: as.user, groups: [...as.groups], impersonated: true }
      : { ...agent, impersonated: false },
    agent,
    view: {
      namespaces: view.namespaces,
      hiddenKinds: [...new Set([...view.hiddenKinds, ...unreadable])],
      unreadableKinds: unreadable,
    },
    kind,
  };
}
