import type { Health } from '../../kube/health.ts';

export type EdgeType = 'manages' | 'exposes' | 'routes-to' | 'configures' | 'uses' | 'protects' | 'traffic';

export interface TopologyNode {
  /**
   * `<kind>/<namespace>/<name>` in lower-case kind (`deployment/shop/web`), an ecosystem kind as `kind.group`
   * (`certificate.cert-manager.io/shop/web`, ADR 0128); cluster-scoped kinds omit the namespace.
   */
  id: string;
  kind: string;
  /** The API group of a kind named `Kind.group` in the id (ADR 0128): the ecosystem's kinds, whose names collide. */
  group?: string;
  namespace?: string;
  name: string;
  status: Health;
  data: Record<string, unknown>;
}

export interface TopologyEdge {
  id: string;
  source: string;
  target: string;
  type: EdgeType;
  /** A shortcut edge (Deployment→Pod past its ReplicaSet) that a client hides when that kind is shown. */
  skipIfKindVisible?: string;
  /** A `traffic` edge's counts (flows, requests, errors, verdicts …) over the traffic window. */
  data?: Record<string, unknown>;
}

export interface Topology {
  nodes: TopologyNode[];
  edges: TopologyEdge[];
  /** Kinds that were still loading or not readable: the graph may lack their nodes. */
  warnings: string[];
  /**
   * Set when the cluster is too big to draw object by object: the nodes are its namespaces (kind `Namespace`,
   * counting objects, pods and their health), each to be opened with a namespace filter.
   */
  collapsedToNamespaces?: boolean;
  /** The graph's size object by object (pods grouped), when reduced. */
  estimatedNodes?: number;
  /**
   * Set when the whole cluster is too big to draw object by object (ADR 0057): `pod-groups` (workloads and
   * Services, each owner's pods one PodGroup), `kinds` (one KindGroup per namespace and kind) or `namespaces`.
   */
  levelOfDetail?: 'pod-groups' | 'kinds' | 'namespaces';
  /** The kinds a reduced graph leaves out (ConfigMaps, Secrets, claims, autoscalers, disruption budgets). */
  leftOutKinds?: string[];
}

export const nodeId = (kind: string, namespace: string | undefined, name: string) =>
  namespace ? `${kind.toLowerCase()}/${namespace}/${name}` : `${kind.toLowerCase()}/${name}`;
