import type { Answer } from '../../api/client.ts';
import { kindLabel } from './labels.ts';

export type Topology = Answer<'/api/topology'>;
export type TopologyNode = Topology['nodes'][number];
export type TopologyEdge = Topology['edges'][number];
export type Health = TopologyNode['status'];
export type Grouping = 'namespace' | 'app' | 'none';

export const healths: Health[] = ['healthy', 'degraded', 'unhealthy', 'unknown'];
export const groupings: Grouping[] = ['namespace', 'app', 'none'];

/** One colour per health state, readable on light and dark backgrounds. */
export const healthColor: Record<Health, string> = {
  healthy: '#059669',
  degraded: '#d97706',
  unhealthy: '#dc2626',
  unknown: '#64748b',
};

export interface GraphFilter {
  /** Kinds to leave out by `filterKind` (ConfigMap, Pod, Service.serving.knative.dev, …); none by default. */
  hiddenKinds: string[];
  /** Health states to show; all when empty. */
  health: Health[];
}

/** The graph as drawn: nodes and edges that pass the filter, each node in its group. */
export interface ShownGraph {
  nodes: TopologyNode[];
  edges: TopologyEdge[];
  /** Node id → group id (`ns:<namespace>` or `app:<namespace>/<name>`); absent without grouping. */
  groupOf: Map<string, string>;
  /** Group id → its title. */
  groups: Map<string, string>;
}

const workloadKinds = [
  'Deployment',
  'StatefulSet',
  'DaemonSet',
  'CronJob',
  'Job',
  'Rollout',
  'Pod',
  'PodGroup',
];

/**
 * The kind a node is filtered by: its Kind, or `Kind.group` for an ecosystem kind's, so that Knative's `Service`
 * is a choice of its own beside the core Service (ADR 0130).
 */
export const filterKind = (node: Pick<TopologyNode, 'kind' | 'group'>) =>
  node.group ? `${node.kind}.${node.group}` : node.kind;

/** A choice of the kind filter: the kind it hides, how it reads (`Service · Knative Serving`), how many it counts. */
export interface KindChoice {
  kind: string;
  label: string;
  count: number;
}

/** The kinds of the graph's nodes as the filter offers them, by label. */
export function kindChoices(topology?: Topology): KindChoice[] {
  const choices = new Map<string, KindChoice>();
  for (const n of topology?.nodes ?? []) {
    const kind = filterKind(n);
    const choice = choices.get(kind) ?? { kind, label: kindLabel(n), count: 0 };
    choice.count += 1;
    choices.set(kind, choice);
  }
  return [...choices.values()].sort((a, b) => a.label.localeCompare(b.label));
}

/**
 * Applies the filter, then draws each edge the agent marked `skipIfKindVisible` only while that kind is
 * hidden (a Deployment → Pod shortcut stands in for Deployment → ReplicaSet → Pod), and groups what is left.
 */
export function shownGraph(topology: Topology, filter: GraphFilter, grouping: Grouping): ShownGraph {
  const hidden = new Set(filter.hiddenKinds);
  const nodes = topology.nodes.filter(
    (n) => !hidden.has(filterKind(n)) && (filter.health.length === 0 || filter.health.includes(n.status)),
  );
  const ids = new Set(nodes.map((n) => n.id));
  const visibleKinds = new Set(nodes.map((n) => n.kind));
  const edges = topology.edges.filter(
    (e) =>
      ids.has(e.source) &&
      ids.has(e.target) &&
      !(e.skipIfKindVisible !== undefined && visibleKinds.has(e.skipIfKindVisible)),
  );
  const groupOf = new Map<string, string>();
  const groups = new Map<string, string>();
  // One node per namespace already is the grouping: no frames around them.
  if (topology.collapsedToNamespaces) return { nodes, edges, groupOf, groups };
  if (grouping === 'namespace') {
    for (const n of nodes) {
      const id = `ns:${n.namespace ?? ''}`;
      groupOf.set(n.id, id);
      groups.set(id, n.namespace ? `namespace ${n.namespace}` : 'cluster-scoped');
    }
  } else if (grouping === 'app') {
    for (const [id, title] of appGroups(nodes, edges, groupOf)) groups.set(id, title);
  }
  return { nodes, edges, groupOf, groups };
}

/**
 * Applications as the graph shows them: objects connected by edges within a namespace (routes aside), named after
 * their main workload (the first Deployment, StatefulSet, … by name). Objects connected to nothing stay ungrouped.
 */
function appGroups(
  nodes: TopologyNode[],
  edges: TopologyEdge[],
  groupOf: Map<string, string>,
): Map<string, string> {
  const parent = new Map(nodes.map((n) => [n.id, n.id]));
  const root = (id: string): string => {
    let at = id;
    while (parent.get(at) !== at) at = parent.get(at) ?? at;
    parent.set(id, at);
    return at;
  };
  const byId = new Map(nodes.map((n) => [n.id, n]));
  for (const e of edges) {
    // An Ingress or Gateway route fronts many applications; it would merge them all into one.
    if (e.type === 'routes-to' || byId.get(e.source)?.namespace !== byId.get(e.target)?.namespace) continue;
    parent.set(root(e.source), root(e.target));
  }
  const members = new Map<string, TopologyNode[]>();
  for (const n of nodes) members.set(root(n.id), [...(members.get(root(n.id)) ?? []), n]);
  const titles = new Map<string, string>();
  for (const group of members.values()) {
    if (group.length < 2) continue;
    const main = [...group].sort(
      (a, b) => rank(a.kind) - rank(b.kind) || a.name.localeCompare(b.name),
    )[0] as TopologyNode;
    const id = `app:${main.namespace ?? ''}/${main.name}`;
    titles.set(id, `${main.name}${main.namespace ? ` (${main.namespace})` : ''}`);
    for (const n of group) groupOf.set(n.id, id);
  }
  return titles;
}

const rank = (kind: string) => {
  const at = workloadKinds.indexOf(kind);
  return at === -1 ? workloadKinds.length : at;
};

/** What decides the layout: which nodes, where they are grouped, and the edges. Statuses do not move anything. */
export function layoutKey(graph: ShownGraph): string {
  const nodes = graph.nodes.map((n) => `${n.id}@${graph.groupOf.get(n.id) ?? ''}`).sort();
  const edges = graph.edges.map((e) => e.id).sort();
  return `${nodes.join('|')}#${edges.join('|')}`;
}

/** Kinds that are no cluster object: a traffic end outside or hidden from the caller, a namespace's objects of one kind. */
const pageless = ['External', 'Hidden', 'KindGroup'];

/**
 * The kind as an object page's address names it: `Kind.group` for a kind the topology names so (an ecosystem kind,
 * whose name may be another's: Knative's `Service`), else the Kind.
 */
export const pageKind = (node: Pick<TopologyNode, 'kind' | 'group'>) =>
  node.group ? `${node.kind}.${node.group}` : node.kind;

/**
 * The object a click opens: the node's own, or for a pod group its owner (whose page lists the pods). A placeholder
 * of an object others name that does not exist opens nothing.
 */
export function openedObject(
  node: TopologyNode,
  topology: Topology,
): { kind: string; namespace: string; name: string } | undefined {
  if (pageless.includes(node.kind) || node.data.missing === true) return undefined;
  if (node.kind === 'PodGroup') {
    const owner = topology.edges.find((e) => e.target === node.id && e.type === 'manages')?.source;
    const found = topology.nodes.find((n) => n.id === owner);
    return found && openedObject(found, topology);
  }
  return { kind: pageKind(node), namespace: node.namespace ?? '_', name: node.name };
}
