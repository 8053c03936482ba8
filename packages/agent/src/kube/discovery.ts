import { AppError, badRequest } from '@binnacle/common/server';
import type { KubeClient } from './client.ts';

/** One kind the cluster serves, at its group's preferred version. */
export interface ApiResource {
  group: string;
  version: string;
  kind: string;
  /** The resource name used in paths, e.g. `deployments`. */
  plural: string;
  singular: string;
  namespaced: boolean;
  verbs: string[];
  shortNames: string[];
  categories: string[];
}

export const apiVersionOf = (r: Pick<ApiResource, 'group' | 'version'>) =>
  r.group ? `${r.group}/${r.version}` : r.version;
/** The group and version an `apiVersion` names (`apps/v1` → apps, v1; `v1` → the core group ''). */
export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}
export const resourceKey = (r: Pick<ApiResource, 'group' | 'plural'>) =>
  r.group ? `${r.plural}.${r.group}` : r.plural;

/** Groups Kubernetes itself serves; on a name clash with a CRD these win, as in kubectl. */
const builtinGroupOrder = [
  '',
  'apps',
  'batch',
  'autoscaling',
  'networking.k8s.io',
  'policy',
  'rbac.authorization.k8s.io',
  'storage.k8s.io',
  'apiextensions.k8s.io',
  'admissionregistration.k8s.io',
  'scheduling.k8s.io',
  'coordination.k8s.io',
  'discovery.k8s.io',
  'node.k8s.io',
  'certificates.k8s.io',
  'events.k8s.io',
  'flowcontrol.apiserver.k8s.io',
  'apiregistration.k8s.io',
  'resource.k8s.io',
  'authentication.k8s.io',
  'authorization.k8s.io',
];
const builtinRank = (group: string) => {
  const index = builtinGroupOrder.indexOf(group);
  return index === -1 ? builtinGroupOrder.length : index;
};

interface DiscoveryResourceV2 {
  resource: string;
  responseKind?: { kind?: string };
  scope?: string;
  singularResource?: string;
  verbs?: string[];
  shortNames?: string[];
  categories?: string[];
}
interface DiscoveryListV2 {
  items?: {
    metadata?: { name?: string };
    versions?: { version: string; resources?: DiscoveryResourceV2[] }[];
  }[];
}
interface LegacyGroupList {
  groups?: { name: string; preferredVersion?: { version: string }; versions?: { groupVersion?: string }[] }[];
}
interface LegacyResourceList {
  resources?: {
    name: string;
    kind: string;
    namespaced: boolean;
    singularName?: string;
    verbs?: string[];
    shortNames?: string[];
    categories?: string[];
  }[];
}

const aggregatedAccept =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;q=0.9';

async function aggregated(client: KubeClient, path: string): Promise<ApiResource[] | undefined> {
  const list = await client.request<DiscoveryListV2 & { kind?: string }>({ path, accept: aggregatedAccept });
  if (list.kind !== 'APIGroupDiscoveryList') return undefined;
  const out: ApiResource[] = [];
  for (const group of list.items ?? []) {
    // Versions come newest-preferred first. A kind that only an older version serves (Crossplane v2 serves its
    // Composition in v1 alone, beside the XRD's v2) is read at the first version that serves it.
    const seen = new Set<string>();
    for (const served of group.versions ?? [])
      for (const r of served.resources ?? []) {
        if (seen.has(r.resource)) continue;
        seen.add(r.resource);
        out.push({
          group: group.metadata?.name ?? '',
          version: served.version,
          kind: r.responseKind?.kind ?? r.resource,
          plural: r.resource,
          singular: r.singularResource ?? '',
          namespaced: r.scope === 'Namespaced',
          verbs: r.verbs ?? [],
          shortNames: r.shortNames ?? [],
          categories: r.categories ?? [],
        });
      }
  }
  return out;
}

async function legacy(client: KubeClient): Promise<ApiResource[]> {
  const groups = await client.request<LegacyGroupList>({ path: '/apis' });
  // Every version of each group, the preferred first: a kind only an older version serves is read there.
  const versions = [
    { group: '', version: 'v1', path: '/api/v1' },
    ...(groups.groups ?? []).flatMap((g) => {
      const preferred = g.preferredVersion?.version ?? 'v1';
      const others = (g.versions ?? [])
        .map((v) => (v.groupVersion ?? '').slice(g.name.length + 1))
        .filter((v) => v !== '' && v !== preferred);
      return [preferred, ...others].map((version) => ({
        group: g.name,
        version,
        path: `/apis/${g.name}/${version}`,
      }));
    }),
  ];
  const lists = await Promise.all(
    versions.map(async (v) => ({
      v,
      list: await client.request<LegacyResourceList>({ path: v.path }).catch((): LegacyResourceList => ({})),
    })),
  );
  const seen = new Set<string>();
  return lists.flatMap(({ v, list }) =>
    (list.resources ?? [])
      .filter((r) => !r.name.includes('/'))
      .filter((r) => {
        const key = `${r.name}.${v.group}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      })
      .map((r) => ({
        group: v.group,
        version: v.version,
        kind: r.kind,
        plural: r.name,
        singular: r.singularName || r.kind.toLowerCase(),
        namespaced: r.namespaced,
        verbs: r.verbs ?? [],
        shortNames: r.shortNames ?? [],
        categories: r.categories ?? [],
      })),
  );
}

/** One group version the API server serves, with the kinds it serves there. */
export interface ServedVersion {
  apiVersion: string;
  resources: { plural: string; kind: string }[];
}

/**
 * Every version of every API group the API server advertises, not only the preferred ones, with their kinds:
 * aggregated discovery in one request, else the group list and each wanted version's own list (one it cannot
 * answer, an aggregated API that is down, serves no kinds).
 */
export async function servedVersions(
  client: KubeClient,
  wanted: (apiVersion: string) => boolean,
): Promise<ServedVersion[]> {
  const list = await client.request<DiscoveryListV2 & { kind?: string }>({
    path: '/apis',
    accept: aggregatedAccept,
  });
  if (list.kind === 'APIGroupDiscoveryList')
    return (list.items ?? []).flatMap((group) =>
      (group.versions ?? [])
        .map((v) => ({
          apiVersion: `${group.metadata?.name}/${v.version}`,
          resources: (v.resources ?? []).map((r) => ({
            plural: r.resource,
            kind: r.responseKind?.kind ?? r.resource,
          })),
        }))
        .filter((v) => wanted(v.apiVersion)),
    );
  const groups = list as LegacyGroupList;
  const versions = (groups.groups ?? []).flatMap((g) => g.versions ?? []).map((v) => v.groupVersion ?? '');
  return Promise.all(
    versions.filter(wanted).map(async (apiVersion) => {
      const served = await client
        .request<LegacyResourceList>({ path: `/apis/${apiVersion}` })
        .catch((): LegacyResourceList => ({}));
      const resources = (served.resources ?? []).filter((r) => !r.name.includes('/'));
      return { apiVersion, resources: resources.map((r) => ({ plural: r.name, kind: r.kind })) };
    }),
  );
}

/** Reads every served kind in two requests (aggregated discovery), falling back to per-group discovery. */
export async function discover(client: KubeClient): Promise<ApiResource[]> {
  const [core, groups] = await Promise.all([aggregated(client, '/api'), aggregated(client, '/apis')]);
  const resources = core && groups ? [...core, ...groups] : await legacy(client);
  return resources.sort(
    (a, b) =>
      builtinRank(a.group) - builtinRank(b.group) ||
      a.group.localeCompare(b.group) ||
      a.plural.localeCompare(b.plural),
  );
}

/**
 * Finds a kind by any name a person would type — plural, singular, Kind, short name, `plural.group` — case
 * insensitively; `group` narrows it. On a clash a built-in group wins over CRDs; a clash among CRDs is an error
 * that lists the groups.
 */
export function resolveKind(resources: readonly ApiResource[], name: string, group?: string): ApiResource {
  const wanted = name.toLowerCase();
  const [base, ...groupParts] = wanted.split('.');
  const dottedGroup = groupParts.join('.');
  const matches = resources.filter((r) => {
    const names = [r.plural, r.singular, r.kind.toLowerCase(), ...r.shortNames.map((s) => s.toLowerCase())];
    if (group !== undefined && r.group !== group) return false;
    if (names.includes(wanted)) return true;
    return dottedGroup !== '' && r.group === dottedGroup && names.includes(base ?? '');
  });
  if (matches.length === 0) {
    const where = group !== undefined ? ` in API group "${group}"` : '';
    throw new AppError(
      'unknown_kind',
      `the cluster serves no kind "${name}"${where}; see /api/api-resources`,
    );
  }
  const best = Math.min(...matches.map((r) => builtinRank(r.group)));
  const top = matches.filter((r) => builtinRank(r.group) === best);
  const first = top[0] as ApiResource;
  if (top.length > 1 && best === builtinGroupOrder.length) {
    throw new AppError(
      'ambiguous_kind',
      `"${name}" is served by several API groups (${top.map((r) => r.group).join(', ')}); pass group=<one of them>`,
    );
  }
  return first;
}

/** The collection path of a kind, in a namespace or cluster-wide. */
export function collectionPath(
  r: Pick<ApiResource, 'group' | 'version' | 'plural' | 'namespaced'>,
  namespace?: string,
): string {
  const prefix = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  return r.namespaced && namespace
    ? `${prefix}/namespaces/${encodeURIComponent(namespace)}/${r.plural}`
    : `${prefix}/${r.plural}`;
}

export function objectPath(r: ApiResource, name: string, namespace?: string): string {
  return `${collectionPath(r, r.namespaced ? namespace : undefined)}/${encodeURIComponent(name)}`;
}

/** The namespace segment that addresses a cluster-scoped object: /api/resources/nodes/_/kwok-node-0. */
export const clusterScoped = '_';

/** Checks the namespace path segment against the kind's scope; returns the namespace (undefined for `_`). */
export function scopeOf(resource: ApiResource, segment: string): string | undefined {
  if (resource.namespaced && segment === clusterScoped) {
    throw badRequest(
      `${resource.plural} are namespaced: put the namespace in the path instead of "${clusterScoped}"`,
    );
  }
  if (!resource.namespaced && segment !== clusterScoped) {
    throw badRequest(
      `${resource.plural} are cluster-scoped: address them as /api/resources/${resource.plural}/${clusterScoped}/<name>`,
    );
  }
  return resource.namespaced ? segment : undefined;
}
