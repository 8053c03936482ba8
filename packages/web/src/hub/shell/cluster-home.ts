/**
 * Where a cluster's pages start: its agent's UI through the hub's tunnel, showing your default namespace when
 * you chose one (a link keeps it in `?namespace=`, as every agent page does).
 */
export function clusterHome(clusterId: string, namespace?: string | null): string {
  const home = `/c/${encodeURIComponent(clusterId)}/`;
  return namespace ? `${home}?namespace=${encodeURIComponent(namespace)}` : home;
}
