import type { KubeObject } from '@binnacle/common';
import { podOwnerGroups } from '../../kube/pod-owners.ts';
import { GraphBuilder } from './graph-builder.ts';
import type { Topology } from './model.ts';
import { idOf } from './node-data.ts';

/** The kinds the topology draws, with their API groups. */
export const topologyGroups = {
  ...podOwnerGroups,
  Pod: '',
  Service: '',
  Ingress: 'networking.k8s.io',
  ConfigMap: '',
  Secret: '',
  PersistentVolumeClaim: '',
  HorizontalPodAutoscaler: 'autoscaling',
  PodDisruptionBudget: 'policy',
  Gateway: 'gateway.networking.k8s.io',
  HTTPRoute: 'gateway.networking.k8s.io',
  GRPCRoute: 'gateway.networking.k8s.io',
  Application: 'argoproj.io',
  Kustomization: 'kustomize.toolkit.fluxcd.io',
  HelmRelease: 'helm.toolkit.fluxcd.io',
} as const;
export type TopologyKind = keyof typeof topologyGroups;
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
 * targets), protects (PDBs), and manages again from GitOps objects to what they applied. A pure function of the
 * objects it is given.
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
  graph.addGitOps();
  return { nodes: [...graph.nodes.values()], edges: [...graph.edges.values()], warnings: [] };
}
