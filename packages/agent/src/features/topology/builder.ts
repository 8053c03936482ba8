import type { KubeObject } from '../../kube/objects.ts';
import { GraphBuilder } from './graph-builder.ts';
import type { Topology } from './model.ts';
import { idOf } from './node-data.ts';

export const topologyKinds = [
  'Deployment',
  'ReplicaSet',
  'StatefulSet',
  'DaemonSet',
  'Job',
  'CronJob',
  'Pod',
  'Service',
  'Ingress',
  'ConfigMap',
  'Secret',
  'PersistentVolumeClaim',
  'HorizontalPodAutoscaler',
  'PodDisruptionBudget',
  'Gateway',
  'HTTPRoute',
  'GRPCRoute',
] as const;
export type TopologyKind = (typeof topologyKinds)[number];
export type TopologyInput = Partial<Record<TopologyKind, KubeObject[]>>;

export interface TopologyOptions {
  /** Show ReplicaSets between Deployments and Pods (default off: Deployment→Pod edges instead). */
  includeReplicaSets: boolean;
  /** Show the Secrets workloads read (default off; ConfigMaps are always shown). */
  includeSecrets: boolean;
  /** Above this many pods under one owner (or, for pods without one, one app label), they become a PodGroup. */
  maxIndividualPods: number;
  /** PodGroup ids to show as their individual pods. */
  expand: string[];
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
 * targets), protects (PDBs). A pure function of the objects it is given.
 */
export function buildTopology(
  input: TopologyInput,
  options: TopologyOptions = defaultTopologyOptions,
): Topology {
  const graph = new GraphBuilder(input, options);
  const templated = graph.addWorkloads();
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
  graph.addServices(readers);
  graph.addRoutes();
  graph.addPolicies(readers);
  return { nodes: [...graph.nodes.values()], edges: [...graph.edges.values()], warnings: [] };
}
