import { bareTopologyKinds, integrations, type KubeObject, topologyKindName } from '@binnacle/common';
import { addEcosystemEdges } from './ecosystem/edges.ts';
import { GraphBuilder } from './graph-builder.ts';
import { addGitOps, addPolicies, addRoutes, addServices } from './links.ts';
import type { Topology } from './model.ts';
import { idOf } from './node-data.ts';

/**
 * The kinds the topology draws by their Kind, with their API groups (Nodes only where a Karpenter NodeClaim names
 * one, ADR 0128).
 */
export const topologyGroups = bareTopologyKinds;
export type TopologyKind = keyof typeof topologyGroups;

/**
 * The ecosystem's kinds the topology reads (`packages/common/src/ecosystem.ts`) beyond those above, each under its
 * `Kind.group` name: the kinds' names collide (ADR 0128).
 */
export const ecosystemTopologyKinds = integrations
  .flatMap((integration) => integration.kinds)
  .filter((k) => topologyKindName(k.group, k.kind) !== k.kind);

/** Policy reports are drawn by `ecosystem/kyverno.ts`, last, where their results count on the objects they name. */
const drawnAlone = ecosystemTopologyKinds.filter((k) => k.group !== 'wgpolicyk8s.io');

/**
 * The objects a graph is built from, by kind: the kinds above by their Kind, the ecosystem's and the kinds a
 * Crossplane XRD defines (with the managed resources their composites name) by `Kind.group`.
 */
export type TopologyInput = { [kind: string]: KubeObject[] | undefined };

export interface TopologyOptions {
  /** Show ReplicaSets between Deployments and Pods (default off: Deployment→Pod edges instead). */
  includeReplicaSets: boolean;
  /** Show the Secrets workloads read (default off; ConfigMaps are always shown). */
  includeSecrets: boolean;
  /** Above this many pods under one owner (or, for pods without one, one app label), they become a PodGroup. */
  maxIndividualPods: number;
  /** PodGroup ids to show as their individual pods. */
  expand: string[];
  /**
   * Whether the caller may read Secrets: a cert-manager Certificate then shows the Secret it writes (only that one,
   * whatever `includeSecrets`), and Ingresses, Gateways and TLS Secrets their certificate (`findings.ts`).
   */
  certificates?: boolean;
  /**
   * The namespaces the graph is of, when filtered: cluster-scoped objects (a ClusterIssuer, a GatewayClass) are
   * then drawn only where an object of these namespaces names them.
   */
  namespaces?: string[];
}

export const defaultTopologyOptions: TopologyOptions = {
  includeReplicaSets: false,
  includeSecrets: false,
  maxIndividualPods: 5,
  expand: [],
};

/**
 * Builds the graph: nodes for workloads, pods (grouped above a threshold), services, routes and what
 * workloads read, and typed edges — manages (owner references), exposes (Service selectors), routes-to
 * (Ingress and Gateway routes), configures (ConfigMaps/Secrets in env, envFrom, volumes), uses (claims, HPA
 * targets), protects (PDBs), manages again from GitOps objects to what they applied, and the ecosystem's objects'
 * edges (docs/topology.md, Ecosystem objects). A pure function of the objects it is given.
 */
export function buildTopology(
  input: TopologyInput,
  options: TopologyOptions = defaultTopologyOptions,
): Topology {
  const graph = new GraphBuilder(input, options);
  const templated = graph.addWorkloads();
  // Before the pods, so that pods an ecosystem object owns (a CloudNativePG Cluster's) are drawn under it.
  graph.addEcosystemObjects(drawnAlone);
  const podReaders = graph.addPods();
  // What reads what: the top-level workloads (and pods without an owner, or their groups) with their pod specs.
  const readers = [
    ...templated.filter((w) => {
      const parent = graph.owner(w);
      return !parent || !graph.nodes.has(idOf(parent));
    }),
    ...podReaders,
  ];
  for (const w of readers) graph.addReads(w);
  addServices(graph, readers);
  addRoutes(graph);
  addPolicies(graph, readers);
  addGitOps(graph);
  addEcosystemEdges(graph);
  return { nodes: [...graph.nodes.values()], edges: [...graph.edges.values()], warnings: [] };
}
