import type { KubeObject } from '@binnacle/common';
import { type LabelSelector, type Labels, selectorMatcher } from '../../../kube/selectors.ts';
import type { Amounts } from './requests.ts';

/** A node as the simulation sees it: what it offers and what the pods placed on it so far take. */
export interface NodeState {
  name: string;
  labels: Record<string, string>;
  taints: Taint[];
  unschedulable: boolean;
  allocatable: Amounts;
  requested: Amounts;
  /** Pods counted against allocatable `pods`. */
  podCount: number;
  /** The labels and namespace of the pods on it, for anti-affinity. */
  pods: { namespace: string; labels: Labels }[];
}

export interface Taint {
  key: string;
  value?: string;
  effect: string;
}
interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
}
interface Requirement {
  key: string;
  operator: string;
  values?: string[];
}
interface NodeSelectorTerm {
  matchExpressions?: Requirement[];
  matchFields?: Requirement[];
}
interface AffinityTerm {
  labelSelector?: LabelSelector;
  namespaces?: string[];
  namespaceSelector?: LabelSelector;
  topologyKey: string;
}
export interface PodSpec {
  nodeSelector?: Record<string, string>;
  tolerations?: Toleration[];
  affinity?: {
    nodeAffinity?: {
      requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] };
    };
    podAntiAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: AffinityTerm[] };
  };
}

/** The kube-scheduler's own reasons (its filter plugins' messages), so a prediction reads like the real event. */
export const reasons = {
  unschedulable: 'node(s) were unschedulable',
  taint: (t: Taint) => `node(s) had untolerated taint {${t.key}: ${t.value ?? ''}}`,
  affinity: "node(s) didn't match Pod's node affinity/selector",
  tooManyPods: 'Too many pods',
  insufficient: (resource: string) => `Insufficient ${resource}`,
  antiAffinity: "node(s) didn't match pod anti-affinity rules",
};

// The refusals that name no resource, made once: the filters run for every pod on every node.
const refusedUnschedulable = [reasons.unschedulable];
const refusedAffinity = [reasons.affinity];
const refusedAntiAffinity = [reasons.antiAffinity];
const fits: string[] = [];

const unschedulableTaint: Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };

/** Kubernetes' toleration rule: same effect (or none given), and the key and value equal (or `Exists`). */
function tolerates(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.operator === 'Exists') return !toleration.key || toleration.key === taint.key;
  return toleration.key === taint.key && (toleration.value ?? '') === (taint.value ?? '');
}
const tolerated = (spec: PodSpec, taint: Taint) => (spec.tolerations ?? []).some((t) => tolerates(t, taint));

function requirementHolds(requirement: Requirement, value: string | undefined): boolean {
  const values = requirement.values ?? [];
  switch (requirement.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
    case 'Lt': {
      const [own, bound] = [Number.parseInt(value ?? '', 10), Number.parseInt(values[0] ?? '', 10)];
      if (Number.isNaN(own) || Number.isNaN(bound)) return false;
      return requirement.operator === 'Gt' ? own > bound : own < bound;
    }
    default:
      return false;
  }
}

/** A node selector term: every expression on the labels and every field (only `metadata.name`) holds; empty matches none. */
function termMatches(term: NodeSelectorTerm, node: NodeState): boolean {
  const expressions = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (expressions.length + fields.length === 0) return false;
  return (
    expressions.every((r) => requirementHolds(r, node.labels[r.key])) &&
    fields.every((r) => requirementHolds(r, r.key === 'metadata.name' ? node.name : undefined))
  );
}

function nodeAffinityMatches(spec: PodSpec, node: NodeState): boolean {
  for (const [key, value] of Object.entries(spec.nodeSelector ?? {}))
    if (node.labels[key] !== value) return false;
  const required = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!required) return true;
  return (required.nodeSelectorTerms ?? []).some((term) => termMatches(term, node));
}

/** Resolves which namespaces an anti-affinity term looks at (its own list, a namespace selector, else the pod's own). */
export type NamespaceLabels = (namespace: string) => Labels;

/**
 * The topology domains (`key=value`) where a pod of the pod's required anti-affinity terms already runs: the pod
 * may go on no node of those domains. Worked out once per pod over every node's pods.
 */
function antiAffinityDomains(
  pod: KubeObject,
  spec: PodSpec,
  nodes: readonly NodeState[],
  namespaceLabels: NamespaceLabels,
): Set<string> {
  const domains = new Set<string>();
  const own = pod.metadata?.namespace ?? '';
  for (const term of spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []) {
    const selects = selectorMatcher(term.labelSelector);
    const namespaceSelects = term.namespaceSelector ? selectorMatcher(term.namespaceSelector) : undefined;
    const listed = term.namespaces ?? [];
    const inScope = (namespace: string) =>
      listed.includes(namespace) ||
      (namespaceSelects
        ? namespaceSelects(namespaceLabels(namespace))
        : listed.length === 0 && namespace === own);
    for (const node of nodes) {
      const domain = node.labels[term.topologyKey];
      if (domain === undefined) continue;
      if (node.pods.some((p) => inScope(p.namespace) && selects(p.labels)))
        domains.add(`${term.topologyKey}=${domain}`);
    }
  }
  return domains;
}

/** What the filters need of one pod, worked out once before its nodes are tried. */
export interface PodNeeds {
  spec: PodSpec;
  requests: ReadonlyMap<string, number>;
  /** Topology domains its anti-affinity rules out. */
  avoid: Set<string>;
}

export function podNeeds(
  pod: KubeObject,
  requests: ReadonlyMap<string, number>,
  nodes: readonly NodeState[],
  namespaceLabels: NamespaceLabels,
): PodNeeds {
  const spec = (pod.spec ?? {}) as PodSpec;
  return { spec, requests, avoid: antiAffinityDomains(pod, spec, nodes, namespaceLabels) };
}

const avoided = (needs: PodNeeds, node: NodeState) =>
  needs.avoid.size > 0 &&
  Object.entries(node.labels).some(([key, value]) => needs.avoid.has(`${key}=${value}`));

/**
 * Why the pod cannot go on the node, in the order of the default scheduler profile's filter plugins
 * (NodeUnschedulable, TaintToleration, NodeAffinity, NodeResourcesFit, InterPodAffinity): the first plugin that
 * refuses decides, and NodeResourcesFit names every resource that is short. Empty: the pod fits.
 */
export function whyNot(needs: PodNeeds, node: NodeState): string[] {
  const { spec, requests } = needs;
  if (node.unschedulable && !tolerated(spec, unschedulableTaint)) return refusedUnschedulable;
  const taint = node.taints.find(
    (t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !tolerated(spec, t),
  );
  if (taint) return [reasons.taint(taint)];
  if (!nodeAffinityMatches(spec, node)) return refusedAffinity;
  let short: string[] | undefined;
  if (node.podCount + 1 > (node.allocatable.get('pods') ?? 0) / 1000) short = [reasons.tooManyPods];
  for (const [resource, wanted] of requests) {
    if (wanted <= 0) continue;
    const free = (node.allocatable.get(resource) ?? 0) - (node.requested.get(resource) ?? 0);
    if (wanted > free) short = [...(short ?? []), reasons.insufficient(resource)];
  }
  if (short) return short;
  if (avoided(needs, node)) return refusedAntiAffinity;
  return fits;
}
