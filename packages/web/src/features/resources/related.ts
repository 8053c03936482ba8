import { topologyNodeId } from '@binnacle/common';
import type { Topology, TopologyEdge, TopologyNode } from '../topology/graph.ts';

/** One list on an object's page: "Owned by", "Owns", "Services", … with the objects in it. */
export interface RelatedGroup {
  title: string;
  nodes: TopologyNode[];
}

/**
 * The topology's node id for an object of an API group (`deployment/shop/web`,
 * `certificate.cert-manager.io/shop/web-tls`; cluster-scoped kinds without namespace).
 */
export const topologyId = (kind: string, namespace: string | undefined, name: string, group = '') =>
  topologyNodeId(group, kind, namespace, name);

const podKinds = new Set(['Pod', 'PodGroup']);

const titleOfKind: Record<string, string> = {
  Service: 'Services',
  Ingress: 'Ingresses',
  HTTPRoute: 'Routes',
  GRPCRoute: 'Routes',
  Gateway: 'Gateways',
  ConfigMap: 'Configuration',
  Secret: 'Configuration',
  PersistentVolumeClaim: 'Volumes',
  HorizontalPodAutoscaler: 'Autoscalers',
  PodDisruptionBudget: 'Disruption budgets',
  GatewayClass: 'Gateway classes',
  ReferenceGrant: 'Reference grants',
  Certificate: 'Certificates',
  CertificateRequest: 'Certificate requests',
  Issuer: 'Issuers',
  ClusterIssuer: 'Issuers',
  Order: 'ACME orders',
  Challenge: 'ACME orders',
  ScaledObject: 'Autoscalers',
  ScaledJob: 'Autoscalers',
  TriggerAuthentication: 'Trigger authentications',
  ClusterTriggerAuthentication: 'Trigger authentications',
  NodePool: 'Node pools',
  NodeClaim: 'Node claims',
  Node: 'Nodes',
  Configuration: 'Configurations',
  Revision: 'Revisions',
  Route: 'Routes',
  Composition: 'Compositions',
  ClusterPolicy: 'Policies',
  Policy: 'Policies',
  PolicyReport: 'Policy reports',
  ClusterPolicyReport: 'Policy reports',
  Backup: 'Backups',
  ScheduledBackup: 'Backups',
  Schedule: 'Backup schedules',
  Restore: 'Restores',
  BackupStorageLocation: 'Backup storage',
  Cluster: 'Database clusters',
  Pooler: 'Connection poolers',
  VirtualService: 'Routes',
  DestinationRule: 'Traffic policies',
};

/**
 * What an object is tied to, read from the topology: its owners up the chain, what it manages down the chain
 * (ReplicaSets, pods), and everything one edge away from any of those — the Services that expose it, the
 * ConfigMaps and Secrets it reads, its volumes, autoscaler and disruption budget. A Service also lists the
 * pods of the workloads it exposes.
 */
export function relatedObjects(topology: Topology, id: string): RelatedGroup[] {
  const byId = new Map(topology.nodes.map((n) => [n.id, n]));
  if (!byId.has(id)) return [];
  const incoming = edgesBy(topology.edges, (e) => e.target);
  const outgoing = edgesBy(topology.edges, (e) => e.source);
  /** Breadth first, so each object has its distance: a ReplicaSet is listed before its pods. */
  const walk = (from: string[], step: (id: string) => string[]) => {
    const depth = new Map<string, number>();
    const queue = [...from];
    for (let at = queue.shift(); at !== undefined; at = queue.shift())
      for (const next of step(at)) {
        if (depth.has(next) || next === id) continue;
        depth.set(next, (depth.get(at) ?? 0) + 1);
        queue.push(next);
      }
    return depth;
  };
  // The Deployment → Pod shortcut would list the pods beside the ReplicaSet they come from.
  const managed = (edges: Map<string, TopologyEdge[]>, end: (e: TopologyEdge) => string) => (at: string) =>
    (edges.get(at) ?? []).filter((e) => e.type === 'manages' && !e.skipIfKindVisible).map(end);
  const owners = walk(
    [id],
    managed(incoming, (e) => e.source),
  );
  const owned = walk(
    [id],
    managed(outgoing, (e) => e.target),
  );
  const lineage = new Set([id, ...owners.keys(), ...owned.keys()]);
  const neighbours = new Set<string>();
  for (const at of lineage)
    for (const e of [...(incoming.get(at) ?? []), ...(outgoing.get(at) ?? [])]) {
      const other = e.source === at ? e.target : e.source;
      if (e.type !== 'manages' && !lineage.has(other)) neighbours.add(other);
    }
  const self = byId.get(id) as TopologyNode;
  // A core Service, not Knative's (whose node names its group).
  const service = self.kind === 'Service' && self.group === undefined;
  if (service) {
    const exposed = (outgoing.get(id) ?? []).filter((e) => e.type === 'exposes').map((e) => e.target);
    for (const [at, depth] of walk(
      exposed,
      managed(outgoing, (e) => e.target),
    ))
      if (podKinds.has(byId.get(at)?.kind ?? '')) owned.set(at, depth);
  }
  const nodesOf = (ids: Iterable<string>, depth = new Map<string, number>()) =>
    [...ids]
      .flatMap((at) => byId.get(at) ?? [])
      .sort(
        (a, b) =>
          (depth.get(a.id) ?? 0) - (depth.get(b.id) ?? 0) ||
          a.kind.localeCompare(b.kind) ||
          a.name.localeCompare(b.name),
      );
  const groups: RelatedGroup[] = [
    { title: 'Owned by', nodes: nodesOf(owners.keys(), owners) },
    { title: service ? 'Pods' : 'Owns', nodes: nodesOf(owned.keys(), owned) },
  ];
  const byTitle = new Map<string, TopologyNode[]>();
  for (const n of nodesOf(neighbours)) {
    const title = titleOfKind[n.kind] ?? (service ? 'Exposes' : 'Other');
    byTitle.set(title, [...(byTitle.get(title) ?? []), n]);
  }
  for (const [title, nodes] of byTitle) groups.push({ title, nodes });
  return groups.filter((g) => g.nodes.length > 0);
}

function edgesBy(edges: TopologyEdge[], key: (e: TopologyEdge) => string): Map<string, TopologyEdge[]> {
  const map = new Map<string, TopologyEdge[]>();
  for (const e of edges) {
    const list = map.get(key(e));
    if (list) list.push(e);
    else map.set(key(e), [e]);
  }
  return map;
}
