import type { KubeObject } from '@binnacle/common';
import {
  type LabelMatcher,
  type LabelSelector,
  type Labels,
  mapSelectorMatcher,
  selectorMatcher,
} from '../../kube/selectors.ts';

/** How an object selects pods (docs/adr/0124-selection-impact.md). */
export type Relation =
  | 'service'
  | 'disruption-budget'
  | 'policy-target'
  | 'policy-ingress-peer'
  | 'policy-egress-peer'
  | 'workload'
  | 'autoscaler';

/** A pod as selectors see it: its labels and its namespace's. */
export interface PodView {
  namespace: string;
  name: string;
  labels: Labels;
  namespaceLabels: Labels;
}

export interface ObjectRef {
  kind: string;
  group: string;
  namespace: string;
  name: string;
}

/** One way an object selects pods: only in `namespace` when it is set, else in every namespace. */
export interface Selection {
  relation: Relation;
  namespace?: string;
  matches: (pod: PodView) => boolean;
}

/**
 * An object that selects pods. `signature` holds everything its selections read, so an object whose signature is
 * the same before and after an edit selects differently only pods whose labels changed.
 */
export interface Holder {
  ref: ObjectRef;
  selections: Selection[];
  signature: string;
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const labelsIn = (value: unknown) => record(value) as Record<string, string> | undefined;

/**
 * A LabelSelector read defensively: a document the API server refused as invalid is judged as sent, and may hold
 * anything there. What is not a selector's shape selects nothing rather than failing.
 */
export function selectorIn(value: unknown): LabelSelector | undefined {
  const selector = record(value);
  if (!selector) return undefined;
  const expressions = list(selector.matchExpressions).map(record);
  return {
    matchLabels: labelsIn(selector.matchLabels),
    matchExpressions: expressions
      .filter((e) => e !== undefined)
      .map((e) => ({ key: String(e.key), operator: String(e.operator), values: list(e.values).map(String) })),
  };
}

const onLabels =
  (matcher: LabelMatcher) =>
  (pod: PodView): boolean =>
    matcher(pod.labels);

/** The workload kinds whose `spec.selector` picks their pods, with their API groups. */
export const selectingWorkloads: Record<string, string> = {
  Deployment: 'apps',
  ReplicaSet: 'apps',
  StatefulSet: 'apps',
  DaemonSet: 'apps',
  Job: 'batch',
};

/**
 * A NetworkPolicy peer's pods: `podSelector` in the policy's namespace, or with `namespaceSelector` the pods (all,
 * or those `podSelector` picks) of the namespaces it picks. An `ipBlock` picks no pod.
 */
function peerMatcher(peer: Record<string, unknown>, namespace: string): (pod: PodView) => boolean {
  const podSelector = selectorIn(peer.podSelector);
  const namespaceSelector = selectorIn(peer.namespaceSelector);
  if (!podSelector && !namespaceSelector) return () => false;
  const pods: LabelMatcher = podSelector ? selectorMatcher(podSelector) : () => true;
  if (!namespaceSelector) return (pod) => pod.namespace === namespace && pods(pod.labels);
  const namespaces = selectorMatcher(namespaceSelector);
  return (pod) => namespaces(pod.namespaceLabels) && pods(pod.labels);
}

function peersSelection(
  relation: Relation,
  rules: unknown,
  field: 'from' | 'to',
  namespace: string,
): Selection | undefined {
  const peers = list(rules).flatMap((rule) => list(record(rule)?.[field]).map(record));
  const matchers = peers.filter((peer) => peer !== undefined).map((peer) => peerMatcher(peer, namespace));
  if (matchers.length === 0) return undefined;
  return { relation, matches: (pod) => matchers.some((m) => m(pod)) };
}

function networkPolicySelections(spec: Record<string, unknown>, namespace: string): Selection[] {
  const target = selectorIn(spec.podSelector);
  const selections: (Selection | undefined)[] = [
    target ? { relation: 'policy-target', namespace, matches: onLabels(selectorMatcher(target)) } : undefined,
    peersSelection('policy-ingress-peer', spec.ingress, 'from', namespace),
    peersSelection('policy-egress-peer', spec.egress, 'to', namespace),
  ];
  return selections.filter((s) => s !== undefined);
}

/** An object's identity among the holders of both snapshots. */
export const refKey = (ref: Pick<ObjectRef, 'kind' | 'namespace' | 'name'>) =>
  `${ref.kind}\u0000${ref.namespace}\u0000${ref.name}`;

/**
 * The objects of a namespace-scoped world that select pods, each with how. An HPA selects its target's pods (by the
 * target's selector, as it reads their metrics), so `objects` must hold the workloads too.
 */
export function holdersOf(objects: readonly KubeObject[]): Holder[] {
  const workloads = new Map<string, unknown>();
  for (const object of objects)
    if (object.kind && object.kind in selectingWorkloads)
      workloads.set(refKey(refOf(object)), object.spec?.selector);
  const holders: Holder[] = [];
  for (const object of objects) {
    const ref = refOf(object);
    const spec = object.spec ?? {};
    const { namespace } = ref;
    const own = (relation: Relation, matcher: LabelMatcher, signature: unknown) =>
      holders.push({
        ref,
        selections: [{ relation, namespace, matches: onLabels(matcher) }],
        signature: JSON.stringify(signature ?? null),
      });
    switch (object.kind) {
      case 'Service':
        own('service', mapSelectorMatcher(labelsIn(spec.selector)), spec.selector);
        break;
      case 'PodDisruptionBudget':
        own('disruption-budget', selectorMatcher(selectorIn(spec.selector)), spec.selector);
        break;
      case 'NetworkPolicy':
        holders.push({
          ref,
          selections: networkPolicySelections(spec, namespace),
          signature: JSON.stringify([spec.podSelector, spec.ingress, spec.egress]),
        });
        break;
      case 'HorizontalPodAutoscaler': {
        const target = record(spec.scaleTargetRef);
        const selector = workloads.get(
          refKey({ kind: String(target?.kind ?? ''), namespace, name: String(target?.name ?? '') }),
        );
        own('autoscaler', selectorMatcher(selectorIn(selector)), [target?.kind, target?.name, selector]);
        break;
      }
      default:
        if (object.kind && object.kind in selectingWorkloads)
          own('workload', selectorMatcher(selectorIn(spec.selector)), spec.selector);
    }
  }
  return holders;
}

/** Kind, API group (from apiVersion), namespace and name of an object. */
export function refOf(object: KubeObject): ObjectRef {
  const apiVersion = object.apiVersion ?? '';
  return {
    kind: object.kind ?? '',
    group: apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '',
    namespace: object.metadata?.namespace ?? '',
    name: object.metadata?.name ?? '',
  };
}
