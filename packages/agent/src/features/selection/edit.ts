import type { KubeObject } from '@binnacle/common';
import { selectorMatcher } from '../../kube/selectors.ts';
import { holdersOf, type PodView, refKey, refOf, selectingWorkloads, selectorIn } from './holders.ts';
import { type PodSample, type Snapshot, sample } from './impact.ts';

/** What the cluster holds now, as the caller may see it. */
export interface LiveObjects {
  pods: readonly KubeObject[];
  namespaces: readonly KubeObject[];
  /** Objects that select pods: Services, PDBs, NetworkPolicies, HPAs and the selecting workloads. */
  selecting: readonly KubeObject[];
  /** ReplicaSets and Jobs: how a Deployment's or a CronJob's pods are reached. */
  intermediates: readonly KubeObject[];
}

/** The edited object now (absent when the edit creates it) and as the dry run answered. */
export interface Edit {
  before?: KubeObject;
  after: KubeObject;
}

type Labels = Record<string, string>;
const labelsOf = (value: unknown): Labels =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Labels) : {};

/** The pod template's labels of a workload, a CronJob's through its job template; undefined: no template. */
export function templateLabels(object: KubeObject | undefined): Labels | undefined {
  const spec = object?.spec as
    | { template?: unknown; jobTemplate?: { spec?: { template?: unknown } } }
    | undefined;
  const template = (object?.kind === 'CronJob' ? spec?.jobTemplate?.spec?.template : spec?.template) as
    | { metadata?: { labels?: unknown } }
    | undefined;
  return template ? labelsOf(template.metadata?.labels) : undefined;
}

const sameLabels = (a: Labels, b: Labels) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

/**
 * A pod of the workload as the rollout of the new template would create it: the old template's labels replaced
 * by the new ones; labels its controller adds (pod-template-hash, controller-revision-hash) kept.
 */
export function relabelled(pod: Labels, oldTemplate: Labels, newTemplate: Labels): Labels {
  const kept = Object.entries(pod).filter(([key]) => !(key in oldTemplate));
  return { ...Object.fromEntries(kept), ...newTemplate };
}

const uidOf = (object: KubeObject | undefined) => object?.metadata?.uid;
const ownedBy = (object: KubeObject, uids: ReadonlySet<string>) =>
  (object.metadata?.ownerReferences ?? []).some((ref) => ref.controller && uids.has(ref.uid));

/** A workload's current pods: its own, or those of the ReplicaSets or Jobs it owns. */
export function podsOf(workload: KubeObject, live: LiveObjects): KubeObject[] {
  const uid = uidOf(workload);
  if (!uid) return [];
  const owners = new Set([uid]);
  for (const middle of live.intermediates) {
    const id = uidOf(middle);
    if (id && ownedBy(middle, new Set([uid]))) owners.add(id);
  }
  return live.pods.filter((pod) => ownedBy(pod, owners));
}

const podKey = (pod: KubeObject) => `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
const view = (pod: KubeObject, labels: Labels, namespaceLabels: Labels): PodView => ({
  namespace: pod.metadata?.namespace ?? '',
  name: pod.metadata?.name ?? '',
  labels,
  namespaceLabels,
});

/** The labels each relabelled pod gets (by `namespace/name`), and a Namespace's new labels. */
interface Relabelling {
  pods: Map<string, Labels>;
  /** Pods the edit creates (a Pod that does not exist yet). */
  created: KubeObject[];
  namespace?: { name: string; labels: Labels };
}

function relabelling(edit: Edit, live: LiveObjects): Relabelling {
  const { before, after } = edit;
  const pods = new Map<string, Labels>();
  const newLabels = labelsOf(after.metadata?.labels);
  switch (after.kind) {
    case 'Pod':
      if (!before) return { pods, created: [after] };
      pods.set(podKey(after), newLabels);
      return { pods, created: [] };
    case 'Namespace':
      return { pods, created: [], namespace: { name: after.metadata?.name ?? '', labels: newLabels } };
  }
  const [oldTemplate, newTemplate] = [templateLabels(before), templateLabels(after)];
  if (before && oldTemplate && newTemplate && !sameLabels(oldTemplate, newTemplate))
    for (const pod of podsOf(before, live))
      pods.set(podKey(pod), relabelled(labelsOf(pod.metadata?.labels), oldTemplate, newTemplate));
  return { pods, created: [] };
}

/** The two snapshots an edit is judged between, which pods it relabels, and a sample of them. */
export function snapshotsOf(
  edit: Edit,
  live: LiveObjects,
): { before: Snapshot; after: Snapshot; relabelled: Set<string>; pods: PodSample } {
  const change = relabelling(edit, live);
  const namespaceLabels = new Map(
    live.namespaces.map((ns) => [ns.metadata?.name ?? '', labelsOf(ns.metadata?.labels)]),
  );
  const beforePods = live.pods.map((pod) =>
    view(pod, labelsOf(pod.metadata?.labels), namespaceLabels.get(pod.metadata?.namespace ?? '') ?? {}),
  );
  const nsAfter = (namespace: string) =>
    change.namespace?.name === namespace ? change.namespace.labels : (namespaceLabels.get(namespace) ?? {});
  const afterPods = [...live.pods, ...change.created].map((pod) =>
    view(
      pod,
      change.pods.get(podKey(pod)) ?? labelsOf(pod.metadata?.labels),
      nsAfter(pod.metadata?.namespace ?? ''),
    ),
  );
  const relabelledKeys = new Set([...change.pods.keys(), ...change.created.map(podKey)]);
  if (change.namespace)
    for (const pod of live.pods)
      if (pod.metadata?.namespace === change.namespace.name) relabelledKeys.add(podKey(pod));
  // The edited object's own ReplicaSets or Jobs are replaced by its rollout rather than losing their pods.
  const editedUid = uidOf(edit.before);
  const selecting = live.selecting.filter((object) => !editedUid || !ownedBy(object, new Set([editedUid])));
  const editedKey = refKey(refOf(edit.after));
  const selectsPods = holdersOf([edit.after]).length > 0;
  const afterSelecting = [
    ...selecting.filter((object) => refKey(refOf(object)) !== editedKey),
    ...(selectsPods ? [edit.after] : []),
  ];
  return {
    before: { pods: beforePods, holders: holdersOf(selecting) },
    after: { pods: afterPods, holders: holdersOf(afterSelecting) },
    relabelled: relabelledKeys,
    pods: sample([...relabelledKeys]),
  };
}

/** A workload whose selector would not pick its own template's pods: its controller would not own them. */
export function templateMismatch(object: KubeObject): string | undefined {
  if (!object.kind || !(object.kind in selectingWorkloads) || object.kind === 'Job') return undefined;
  const labels = templateLabels(object);
  const selector = selectorIn(object.spec?.selector);
  if (!labels || !selector) return undefined;
  if (selectorMatcher(selector)(labels)) return undefined;
  return `${object.kind} ${object.metadata?.name}: its selector does not match its pod template's labels`;
}
