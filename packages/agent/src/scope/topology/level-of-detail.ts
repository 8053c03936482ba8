import { codePointOrder, type KubeObject } from '@binnacle/common';
import { buildTopology, type TopologyInput, type TopologyKind, type TopologyOptions } from './builder.ts';
import { nodeId, type Topology, type TopologyNode } from './model.ts';
import { namespaceOverview } from './namespace-overview.ts';
import { healthSummary, ns } from './node-data.ts';
import { appOf } from './pod-groups.ts';

/**
 * What a whole cluster too big to draw leaves out first (ADR 0057): what configures, stores or guards a workload,
 * not what runs or serves. The kinds and namespaces levels leave them out too.
 */
export const leafKinds: TopologyKind[] = [
  'ConfigMap',
  'Secret',
  'PersistentVolumeClaim',
  'HorizontalPodAutoscaler',
  'PodDisruptionBudget',
];

/** How far a whole cluster was reduced: pods grouped by owner, then objects counted per kind, then per namespace. */
export type LevelOfDetail = 'pod-groups' | 'kinds' | 'namespaces';

/**
 * A cheap upper bound of the node count: every object but the left-out kinds and the ReplicaSets the graph hides,
 * and each owner's pods one by one up to `maxPods`, one group above.
 */
export function estimate(
  input: TopologyInput,
  options: Pick<TopologyOptions, 'maxIndividualPods' | 'includeReplicaSets'>,
  leftOut: readonly string[] = ['ConfigMap', 'Secret'],
): number {
  let total = 0;
  const owners = new Map<string, number>();
  for (const [kind, objects] of Object.entries(input) as [string, KubeObject[]][]) {
    // Nodes are drawn only where a NodeClaim names them, beside it.
    if (leftOut.includes(kind) || kind === 'Node') continue;
    if (kind === 'ReplicaSet' && !options.includeReplicaSets) {
      total += objects.filter((rs) => !rs.metadata?.ownerReferences?.length).length;
      continue;
    }
    if (kind !== 'Pod') {
      total += objects.length;
      continue;
    }
    for (const pod of objects) {
      const owner = pod.metadata?.ownerReferences?.[0]?.uid ?? `${ns(pod)}\u0000${appOf(pod) ?? ''}`;
      owners.set(owner, (owners.get(owner) ?? 0) + 1);
    }
  }
  for (const count of owners.values()) total += count > options.maxIndividualPods ? 1 : count;
  return total;
}

/** Each namespace's objects of each kind as one node, `Deployment × 140`, counting their health. */
export function kindGroups(input: TopologyInput): TopologyNode[] {
  const groups = new Map<string, { namespace: string; kind: string; objects: KubeObject[] }>();
  for (const [kind, objects] of Object.entries(input) as [string, KubeObject[]][]) {
    for (const o of objects) {
      const namespace = ns(o);
      if (!namespace) continue;
      const key = `${namespace}\u0000${kind}`;
      const group = groups.get(key);
      if (group) group.objects.push(o);
      else groups.set(key, { namespace, kind, objects: [o] });
    }
  }
  return [...groups.values()]
    .sort((a, b) => codePointOrder(a.namespace, b.namespace) || codePointOrder(a.kind, b.kind))
    .map(({ namespace, kind, objects }) => {
      const { counts, status } = healthSummary(objects);
      return {
        id: nodeId('KindGroup', namespace, kind.toLowerCase()),
        kind: 'KindGroup',
        namespace,
        name: `${kind} × ${objects.length}`,
        status,
        data: { of: kind, count: objects.length, ...counts },
      };
    });
}

/**
 * The whole cluster within `limit` nodes, at the finest level that fits: its workloads and Services with each
 * owner's pods one PodGroup; else each namespace's objects counted per kind; else one node per namespace. Each
 * level says what it left out, and the graph stays within the limit whatever the cluster's size.
 */
export function reducedTopology(input: TopologyInput, options: TopologyOptions, limit: number): Topology {
  const leftOutKinds = leafKinds.filter((kind) => (input[kind]?.length ?? 0) > 0);
  const running: TopologyInput = Object.fromEntries(
    Object.entries(input).filter(([kind]) => !leafKinds.includes(kind as TopologyKind)),
  );
  const grouping = { ...options, includeSecrets: false, maxIndividualPods: 0, expand: [] };
  if (estimate(running, grouping, []) <= limit) {
    const grouped = buildTopology(running, grouping);
    // A group is not shown pod by pod here: `expand` is for a namespace's graph, where the pods are.
    const nodes = grouped.nodes.map((n) =>
      n.kind === 'PodGroup' ? { ...n, data: { ...n.data, expandable: false } } : n,
    );
    if (nodes.length <= limit) return { ...grouped, nodes, levelOfDetail: 'pod-groups', leftOutKinds };
  }
  if (!options.includeReplicaSets) delete running.ReplicaSet;
  const kinds = kindGroups(running);
  if (kinds.length <= limit)
    return { nodes: kinds, edges: [], warnings: [], levelOfDetail: 'kinds', leftOutKinds };
  return {
    nodes: namespaceOverview(input),
    edges: [],
    warnings: [],
    collapsedToNamespaces: true,
    levelOfDetail: 'namespaces',
    leftOutKinds,
  };
}
