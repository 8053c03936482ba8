import { type Holder, type ObjectRef, type PodView, type Relation, refKey } from './holders.ts';

/** One side of an edit: the pods (with their labels and their namespaces') and the objects that select them. */
export interface Snapshot {
  pods: readonly PodView[];
  holders: readonly Holder[];
}

export interface PodRef {
  namespace: string;
  name: string;
}

/** A few of the pods an object gains or loses, and how many there are. */
export interface PodSample {
  count: number;
  pods: PodRef[];
}

/** An object that selects other pods after the edit than before. */
export interface SelectionChange extends ObjectRef {
  relation: Relation;
  /** How many pods it selects now, and after the edit. */
  before: number;
  after: number;
  gained: PodSample;
  lost: PodSample;
}

/** Pods named per list: the counts stay exact, the names are what a person reads. */
export const podsNamed = 20;

const podKey = (pod: Pick<PodView, 'namespace' | 'name'>) => `${pod.namespace}/${pod.name}`;

function byNamespace(pods: readonly PodView[]): Map<string, PodView[]> {
  const index = new Map<string, PodView[]>();
  for (const pod of pods) {
    const group = index.get(pod.namespace);
    if (group) group.push(pod);
    else index.set(pod.namespace, [pod]);
  }
  return index;
}

interface Side {
  pods: readonly PodView[];
  byKey: Map<string, PodView>;
  index: Map<string, PodView[]>;
  holders: Map<string, Holder>;
}

const sideOf = (snapshot: Snapshot): Side => ({
  pods: snapshot.pods,
  byKey: new Map(snapshot.pods.map((pod) => [podKey(pod), pod])),
  index: byNamespace(snapshot.pods),
  holders: new Map(snapshot.holders.map((h) => [refKey(h.ref), h])),
});

/** The pods a selection may pick: the candidates when given (looked up, not scanned for), else all in its reach. */
function reach(side: Side, namespace: string | undefined, candidates: ReadonlySet<string> | undefined) {
  if (!candidates) return namespace === undefined ? side.pods : (side.index.get(namespace) ?? []);
  const pods: PodView[] = [];
  for (const key of candidates) {
    const pod = side.byKey.get(key);
    if (pod && (namespace === undefined || pod.namespace === namespace)) pods.push(pod);
  }
  return pods;
}

/** The keys of the pods, among `candidates`, that a holder's selection of `relation` picks. */
function selected(
  side: Side,
  holder: Holder | undefined,
  relation: Relation,
  candidates: ReadonlySet<string> | undefined,
): Set<string> {
  const selection = holder?.selections.find((s) => s.relation === relation);
  const picked = new Set<string>();
  if (!selection) return picked;
  for (const pod of reach(side, selection.namespace, candidates))
    if (selection.matches(pod)) picked.add(podKey(pod));
  return picked;
}

/** The count of `namespace/name` keys, and the first few by name. */
export const sample = (keys: string[]): PodSample => ({
  count: keys.length,
  pods: keys
    .sort()
    .slice(0, podsNamed)
    .map((key) => {
      const at = key.indexOf('/');
      return { namespace: key.slice(0, at), name: key.slice(at + 1) };
    }),
});

/**
 * Which objects gain or lose pods between two snapshots of the same pods (docs/adr/0124-selection-impact.md).
 * A holder whose signature is unchanged can only select differently among `relabelled` pods, so only those are
 * matched against it; one whose selectors changed (the edited object, an HPA whose target's selector changed) is
 * matched against every pod in its reach. Full counts are taken for the holders reported only.
 */
export function selectionChanges(
  before: Snapshot,
  after: Snapshot,
  relabelled: ReadonlySet<string>,
): SelectionChange[] {
  const [was, will] = [sideOf(before), sideOf(after)];
  const keys = new Set([...was.holders.keys(), ...will.holders.keys()]);
  const changes: SelectionChange[] = [];
  for (const key of keys) {
    const [old, next] = [was.holders.get(key), will.holders.get(key)];
    const candidates = old?.signature === next?.signature ? relabelled : undefined;
    if (candidates?.size === 0) continue;
    const relations = new Set(
      [...(old?.selections ?? []), ...(next?.selections ?? [])].map((s) => s.relation),
    );
    for (const relation of relations) {
      const [from, to] = [
        selected(was, old, relation, candidates),
        selected(will, next, relation, candidates),
      ];
      const gained = [...to].filter((pod) => !from.has(pod));
      const lost = [...from].filter((pod) => !to.has(pod));
      if (gained.length === 0 && lost.length === 0) continue;
      const ref = (next ?? old)?.ref as ObjectRef;
      changes.push({
        ...ref,
        relation,
        before: candidates ? selected(was, old, relation, undefined).size : from.size,
        after: candidates ? selected(will, next, relation, undefined).size : to.size,
        gained: sample(gained),
        lost: sample(lost),
      });
    }
  }
  return changes.sort(
    (a, b) =>
      a.namespace.localeCompare(b.namespace) || a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name),
  );
}
