import type { KubeObject } from '@binnacle/common';
import type { Gap, HistoryStore, StoredState } from './history-store.ts';
import { applied, type Operation } from './patch.ts';
import type { ObjectVersions } from './versions.ts';

/** The history a restart found on disk, taken up kind by kind as each kind's first list arrives. */
export interface Resumed {
  /** The spans earlier runs did not watch. */
  gaps: Gap[];
  /**
   * A kind's first list after the restart: what the store held of the kind joins the history, the objects that
   * changed or went while the agent was stopped change or go at `at` (and are answered), and the span since the
   * last run stopped watching is a gap, kept in the store too. A kind the store did not hold begins there: no gap.
   */
  takeUp(
    resource: string,
    objects: readonly KubeObject[],
    at: number,
  ): { gap: Gap; changes: GapChange[] } | undefined;
}

/** An object found changed (`after`) or gone (no `after`) when its kind listed again after a restart. */
export interface GapChange {
  before: KubeObject;
  after?: KubeObject;
}

/** An object whose only stored state is whole: read from disk only if the cluster no longer has that state. */
interface Unread {
  resource: string;
  at: number;
  resourceVersion?: string;
}

const parsed = <T>(body: string | undefined): T | undefined => {
  if (body === undefined) return undefined;
  try {
    return JSON.parse(body) as T;
  } catch {
    return undefined;
  }
};
const uidOf = (object: KubeObject) => object.metadata?.uid ?? '';
const named = (state: StoredState): KubeObject => ({
  metadata: { uid: state.uid, name: state.name, ...(state.namespace ? { namespace: state.namespace } : {}) },
});

/**
 * Reads the store back into `versions` (ADR 0114). Objects with several stored states are replayed now (a whole
 * state, then operations); those with one whole state are only noted, since most are unchanged when their kind
 * lists again and the cached object then stands for the stored one without its JSON ever being parsed.
 */
export function resume(store: HistoryStore, versions: ObjectVersions, oldest: number): Resumed {
  store.prune(oldest);
  const since = store.kinds();
  const watchedUntil = store.watchedUntil();
  const unread = new Map<string, Unread>();
  let rows: StoredState[] = [];
  const take = () => {
    const [first] = rows;
    if (rows.length === 1 && first?.form === 'whole')
      unread.set(first.uid, {
        resource: first.resource,
        at: first.at,
        ...(first.resourceVersion ? { resourceVersion: first.resourceVersion } : {}),
      });
    else replay(rows, versions);
    rows = [];
  };
  for (const state of store.states()) {
    if (rows.length > 0 && rows[0]?.uid !== state.uid) take();
    rows.push(state);
  }
  if (rows.length > 0) take();
  versions.restored();

  /** The stored state of an unread object, joined to the history as it was from its time. */
  const read = (uid: string, entry: Unread): KubeObject | undefined => {
    unread.delete(uid);
    const object = parsed<KubeObject>(store.body(uid, entry.at));
    if (object) versions.restore(entry.resource, object, object, entry.at, 0);
    return object;
  };

  return {
    gaps: store.gaps(),
    takeUp(resource, objects, at) {
      const began = since.get(resource);
      if (began === undefined) {
        store.began(resource, at);
        return undefined;
      }
      since.delete(resource);
      versions.beginAt(resource, began);
      // The objects replayed from several states; those with one are still unread.
      const replayed = new Map([...versions.present(resource)].map((object) => [uidOf(object), object]));
      const changes: GapChange[] = [];
      const listed = new Set<string>();
      for (const object of objects) {
        const uid = uidOf(object);
        listed.add(uid);
        const entry = unread.get(uid);
        let before = replayed.get(uid);
        if (entry?.resource === resource) {
          if (entry.resourceVersion && entry.resourceVersion === object.metadata?.resourceVersion) {
            unread.delete(uid);
            versions.restore(resource, object, object, entry.at, 0);
            continue;
          }
          before = read(uid, entry);
        }
        if (before && before.metadata?.resourceVersion !== object.metadata?.resourceVersion)
          changes.push({ before, after: object });
      }
      for (const [uid, entry] of unread) {
        const before = entry.resource === resource ? read(uid, entry) : undefined;
        if (before) changes.push({ before });
      }
      for (const [uid, before] of replayed) if (!listed.has(uid)) changes.push({ before });
      for (const { before, after } of changes) if (!after) versions.remove(resource, before, at);
      const gap = { resource, from: watchedUntil ?? began, to: at };
      store.addGap(gap);
      return { gap, changes };
    },
  };
}

/** One object's stored states into the history: from its first whole state on, each in turn. */
function replay(rows: readonly StoredState[], versions: ObjectVersions): void {
  let state: KubeObject | null | undefined;
  let journaled = 0;
  for (const row of rows) {
    if (row.form === 'whole') {
      state = parsed<KubeObject>(row.body);
      journaled = 0;
    } else if (row.form === 'ops') {
      const ops = parsed<Operation[]>(row.body);
      if (!state || !ops) continue;
      state = applied(state, ops);
      journaled += 1;
    } else {
      if (state === undefined) continue;
      state = null;
      journaled = 0;
    }
    if (state === undefined) continue;
    versions.restore(row.resource, state ?? named(row), state, row.at, journaled);
  }
}
