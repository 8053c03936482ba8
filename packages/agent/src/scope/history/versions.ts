import type { KubeObject } from '@binnacle/common';
import { applied, forwardOf, type Operation, operations } from './patch.ts';

/**
 * One state of an object from `at` (ms) on: kept whole (`object`: the cached object itself, or null once it was
 * deleted) or as `back`, the operations that turn the next version's state into this one.
 */
interface Version {
  at: number;
  object?: KubeObject | null;
  back?: Operation[];
}

/** A past state is kept whole after this many in a row kept as operations, so no rebuild applies more. */
const longestChain = 16;

/** Every kept state of one object (one uid), oldest first. */
interface Track {
  key: string;
  resource: string;
  namespace?: string;
  name: string;
  versions: Version[];
  /** States the journal wrote as operations since its last whole one; undefined: none written whole yet. */
  journaled?: number;
}

/**
 * A new state, as the journal (disk) is given it: the object, or null once deleted, and when the state before it
 * was journaled too, the operations from that state to this one. `journaled` is how many states in a row the
 * journal has written as operations; it writes a whole one when this passes its limit.
 */
export interface JournalStep {
  uid: string;
  resource: string;
  namespace?: string;
  name: string;
  at: number;
  state: KubeObject | null;
  forward?: Operation[];
  journaled?: number;
}

/** A version no longer current: needed only for moments before `until`, the time the next one began. */
interface Superseded {
  track: Track;
  until: number;
  bytes: number;
}

/** The moments a kind's past can be asked for (ms): from `oldest` to now. */
export interface HistoryWindow {
  oldest: number;
  newest: number;
}

/** One object that changed between two moments: its state at each (undefined: it did not exist). */
export interface ObjectChange {
  resource: string;
  namespace?: string;
  name: string;
  before?: KubeObject;
  after?: KubeObject;
}

export interface VersionsOptions {
  /** How far back states are kept (ms). */
  windowMs: number;
  /** The kept past versions' size as JSON, at most; past it the oldest go first and the window starts later. */
  maxBytes: number;
  /**
   * Given every new state (not those restored from it), for the disk; answers whether it wrote the state as
   * operations (true) or whole (false).
   */
  journal?: (step: JournalStep) => boolean;
}

const sameVersion = (a: KubeObject, b: KubeObject) =>
  a.metadata?.resourceVersion !== undefined && a.metadata.resourceVersion === b.metadata?.resourceVersion;

/** The position of the version in force at `at` (the last that began at or before it); -1 before the first. */
function versionAt(versions: readonly Version[], at: number): number {
  let low = 0;
  let high = versions.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((versions[middle] as Version).at <= at) low = middle + 1;
    else high = middle;
  }
  return low - 1;
}

/** The state of version `index`: kept whole, or rebuilt from the next whole one back through the operations. */
function stateOf(versions: readonly Version[], index: number): KubeObject | null | undefined {
  if (index < 0) return undefined;
  let whole = index;
  while ((versions[whole] as Version).object === undefined) whole += 1;
  let state = (versions[whole] as Version).object as KubeObject | null;
  for (let i = whole - 1; i >= index; i -= 1) state = applied(state, (versions[i] as Version).back ?? []);
  return state;
}

/**
 * Every state of every cached object inside a time window (ADR 0114). The current state is the cached object itself
 * (the cache replaces objects, never changes them), so it costs a reference; a past state is kept as the operations
 * that turn its successor back into it (whole before a deletion, and after 16 in a row), its size as JSON counted
 * against `maxBytes`. Versions leave once no moment inside
 * the window needs them: by age (`windowMs`), or oldest first when the bytes run over, which moves the window's
 * start (`floor`) forward for every kind alike.
 */
export class ObjectVersions {
  readonly #options: VersionsOptions;
  readonly #tracks = new Map<string, Track>();
  readonly #byResource = new Map<string, Set<Track>>();
  /** When each kind's history begins: its first list. */
  readonly #since = new Map<string, number>();
  /** Past versions in the order they were superseded (so, by `until`); `#head` is the first not yet dropped. */
  #superseded: Superseded[] = [];
  #head = 0;
  #bytes = 0;
  /** No moment before this is kept, for any kind. */
  #floor = 0;

  constructor(options: VersionsOptions) {
    this.#options = options;
  }

  /** A kind's first list: its objects as they are at `at`, where its history begins. */
  begin(resource: string, objects: readonly KubeObject[], at: number): void {
    if (!this.#since.has(resource)) this.#since.set(resource, at);
    for (const object of objects) this.record(resource, object, at);
  }

  /** An object as it is from `at` on (created or changed). */
  record(resource: string, object: KubeObject, at: number): void {
    const track = this.#track(resource, object);
    this.#push(track, { at, object });
  }

  /** An object deleted at `at`. */
  remove(resource: string, object: KubeObject, at: number): void {
    const track = this.#track(resource, object);
    if (track.versions.at(-1)?.object === null) return;
    this.#push(track, { at, object: null });
  }

  /**
   * A state read back from the journal (after a restart): kept as a recorded one is, not journaled again;
   * `journaled` is how many the journal holds as operations in a row up to it.
   */
  restore(
    resource: string,
    object: KubeObject,
    state: KubeObject | null,
    at: number,
    journaled: number,
  ): void {
    const track = this.#track(resource, object);
    this.#push(track, { at, object: state }, false);
    track.journaled = journaled;
  }

  /**
   * Puts the past versions restored object after object back in the order they were superseded, which pruning
   * follows (each object's own stay in order: the sort is stable).
   */
  restored(): void {
    const waiting = this.#superseded.slice(this.#head);
    waiting.sort((a, b) => a.until - b.until);
    this.#superseded = waiting;
    this.#head = 0;
  }

  /** The current states of `resource`'s objects, those deleted left out. */
  *present(resource: string): Generator<KubeObject> {
    for (const track of this.#byResource.get(resource) ?? []) {
      const object = track.versions.at(-1)?.object;
      if (object) yield object;
    }
  }

  /** Moves when `resource`'s history begins (a restart resumes it from the journal's). */
  beginAt(resource: string, since: number): void {
    const known = this.#since.get(resource);
    if (known === undefined || since < known) this.#since.set(resource, since);
  }

  /** The moments `resource`'s past can be asked for; undefined before its first list. */
  window(resource: string, now: number): HistoryWindow | undefined {
    const since = this.#since.get(resource);
    if (since === undefined) return undefined;
    return { oldest: Math.max(since, this.#floor, now - this.#options.windowMs), newest: now };
  }

  /** The objects of `resource` (in `namespaces`, when given) as they were at `at`. */
  list(resource: string, at: number, namespaces?: readonly string[]): KubeObject[] {
    const inView = namespaces && new Set(namespaces);
    const out: KubeObject[] = [];
    for (const track of this.#byResource.get(resource) ?? []) {
      if (inView && !inView.has(track.namespace ?? '')) continue;
      const object = stateOf(track.versions, versionAt(track.versions, at));
      if (object) out.push(object);
    }
    return out;
  }

  /** How many objects of `resource` (in `namespaces`, when given) existed at `at`, without rebuilding them. */
  count(resource: string, at: number, namespaces?: readonly string[]): number {
    const inView = namespaces && new Set(namespaces);
    let count = 0;
    for (const track of this.#byResource.get(resource) ?? []) {
      if (inView && !inView.has(track.namespace ?? '')) continue;
      const index = versionAt(track.versions, at);
      // Only a deletion is kept as null; a state kept as operations existed.
      if (index >= 0 && (track.versions[index] as Version).object !== null) count += 1;
    }
    return count;
  }

  /** One object of `resource` by namespace and name as it was at `at`. */
  get(resource: string, namespace: string | undefined, name: string, at: number): KubeObject | undefined {
    for (const track of this.#byResource.get(resource) ?? []) {
      if (track.name !== name || (track.namespace ?? '') !== (namespace ?? '')) continue;
      const object = stateOf(track.versions, versionAt(track.versions, at));
      if (object) return object;
    }
    return undefined;
  }

  /** Every object whose state at `to` differs from its state at `from`. */
  changes(from: number, to: number): ObjectChange[] {
    const out: ObjectChange[] = [];
    for (const track of this.#tracks.values()) {
      const before = versionAt(track.versions, from);
      const after = versionAt(track.versions, to);
      if (before === after) continue;
      const then = stateOf(track.versions, before) ?? undefined;
      const now = stateOf(track.versions, after) ?? undefined;
      if (!then && !now) continue;
      if (then && now && then.metadata?.resourceVersion === now.metadata?.resourceVersion) continue;
      out.push({
        resource: track.resource,
        ...(track.namespace ? { namespace: track.namespace } : {}),
        name: track.name,
        ...(then ? { before: then } : {}),
        ...(now ? { after: now } : {}),
      });
    }
    return out;
  }

  /** Drops what no moment inside the window needs any more, by age and then by size; answers the window's start. */
  prune(now: number): number {
    this.#floor = Math.max(this.#floor, now - this.#options.windowMs);
    this.#dropBefore(this.#floor);
    while (this.#bytes > this.#options.maxBytes && this.#head < this.#superseded.length) {
      this.#floor = Math.max(this.#floor, (this.#superseded[this.#head] as Superseded).until);
      this.#dropBefore(this.#floor);
    }
    return this.#floor;
  }

  stats(): { objects: number; versions: number; pastBytes: number } {
    let versions = 0;
    for (const track of this.#tracks.values()) versions += track.versions.length;
    return { objects: this.#tracks.size, versions, pastBytes: this.#bytes };
  }

  #track(resource: string, object: KubeObject): Track {
    const namespace = object.metadata?.namespace;
    const name = object.metadata?.name ?? '';
    const key = object.metadata?.uid ?? `${resource}/${namespace ?? ''}/${name}`;
    let track = this.#tracks.get(key);
    if (!track) {
      track = { key, resource, ...(namespace ? { namespace } : {}), name, versions: [] };
      this.#tracks.set(key, track);
      let tracks = this.#byResource.get(resource);
      if (!tracks) {
        tracks = new Set();
        this.#byResource.set(resource, tracks);
      }
      tracks.add(track);
    }
    return track;
  }

  #push(track: Track, version: Version, journal = true): void {
    const { versions } = track;
    const last = versions.at(-1);
    if (last && last.object === version.object) return;
    // The same state again (a relist, or a restart finding what the journal had): the cached object replaces the
    // one kept, which it equals, so the two share one copy.
    if (last?.object && version.object && sameVersion(last.object, version.object)) {
      last.object = version.object;
      return;
    }
    // Two changes seen in one millisecond (or a clock set back): the later one begins a millisecond after.
    const next = last && last.at >= version.at ? { ...version, at: last.at + 1 } : version;
    if (last) this.#supersede(track, last, next);
    versions.push(next);
    if (journal && this.#options.journal) this.#journal(track, last, next);
  }

  #journal(track: Track, last: Version | undefined, next: Version): void {
    const state = next.object as KubeObject | null;
    // The way forward from the previous state, when the journal holds that state and memory kept the way back.
    const forward =
      state && last?.back && track.journaled !== undefined ? forwardOf(last.back, state) : undefined;
    const wroteOperations = this.#options.journal?.({
      uid: track.key,
      resource: track.resource,
      ...(track.namespace ? { namespace: track.namespace } : {}),
      name: track.name,
      at: next.at,
      state,
      ...(forward ? { forward, journaled: track.journaled } : {}),
    });
    track.journaled = wroteOperations ? (track.journaled ?? 0) + 1 : 0;
  }

  /** `last` stops being current: kept as the operations from `next` back to it, or whole (see the class). */
  #supersede(track: Track, last: Version, next: Version): void {
    let bytes = 0;
    if (last.object && next.object) {
      let chained = 0;
      for (let i = track.versions.length - 2; i >= 0 && (track.versions[i] as Version).back; i -= 1)
        chained += 1;
      if (chained + 1 < longestChain) {
        last.back = operations(next.object, last.object);
        last.object = undefined;
        bytes = JSON.stringify(last.back).length;
      }
    }
    if (last.object) bytes = JSON.stringify(last.object).length;
    this.#superseded.push({ track, until: next.at, bytes });
    this.#bytes += bytes;
  }

  #dropBefore(floor: number): void {
    while (this.#head < this.#superseded.length) {
      const oldest = this.#superseded[this.#head] as Superseded;
      if (oldest.until > floor) break;
      this.#head += 1;
      this.#bytes -= oldest.bytes;
      const { track } = oldest;
      // The version it names is its track's first: a track's versions are superseded in the order they began.
      track.versions.shift();
      const [only] = track.versions;
      // Deleted before the window starts: nothing of it can be asked for.
      if (track.versions.length === 1 && only?.object === null && only.at <= floor) this.#forget(track);
    }
    if (this.#head > 1024 && this.#head * 2 > this.#superseded.length) {
      this.#superseded = this.#superseded.slice(this.#head);
      this.#head = 0;
    }
  }

  #forget(track: Track): void {
    this.#tracks.delete(track.key);
    this.#byResource.get(track.resource)?.delete(track);
  }
}
