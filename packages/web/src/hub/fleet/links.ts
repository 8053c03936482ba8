/**
 * Where a fleet row opens: its cluster's own pages through the hub's tunnel (`/c/<clusterId>/…`), the same paths
 * the agent's router serves, with `?namespace=` so that page's namespace picker shows where the object lives.
 */
export function clusterPage(clusterId: string, path: string, query: Record<string, string | undefined> = {}) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const search = params.size > 0 ? `?${params}` : '';
  return `/c/${encodeURIComponent(clusterId)}/${path}${search}`;
}

const part = encodeURIComponent;

/**
 * An object's page. The resources routes take a Kind as well as a plural, and `Kind.group` for kinds several
 * API groups serve (an Argo CD `Application.argoproj.io`); cluster-scoped objects have `_` as namespace.
 */
export function objectPage(
  clusterId: string,
  object: { kind: string; group?: string; namespace?: string; name: string },
) {
  const kind = object.group ? `${object.kind}.${object.group}` : object.kind;
  return clusterPage(
    clusterId,
    `resources/${part(kind)}/${part(object.namespace || '_')}/${part(object.name)}`,
    {
      namespace: object.namespace,
    },
  );
}

/** A certificate on the cluster's certificates page, filtered to it (its chain opens there). */
export const certificatePage = (clusterId: string, cert: { namespace: string; name: string }) =>
  clusterPage(clusterId, 'certificates', { namespace: cert.namespace, q: cert.name });

/** A Helm release's page; packages found only by labels, CRDs or GitOps have none, so their Helm list. */
export const packagePage = (clusterId: string, pkg: { namespace?: string; releaseName?: string }) =>
  pkg.releaseName && pkg.namespace
    ? clusterPage(clusterId, `helm/${part(pkg.namespace)}/${part(pkg.releaseName)}`, {
        namespace: pkg.namespace,
      })
    : undefined;
