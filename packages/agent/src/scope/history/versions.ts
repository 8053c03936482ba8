import type { KubeObject } from '@binnacle/common';

/** One state of an object from `at` (ms) on: the object as the cache held it, or null once it was deleted. */
interface Version {
  at: number;
  object: KubeObject | null;
}

/** Every kept state of one object (one uid), oldest first. */
interface Track {
  key: string;
  resource: string;
  namespace?: string;
  name: string;
  versions: Version[];
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
}

/** The version in force at `at`: the last that began at or before it. */
function versionAt(versions: readonly Version[], at: number): Version | undefined {
  let low = 0;
  let high = versions.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((versions[middle] as Version).at <= at) low = middle + 1;
    else high = middle;
  }
  return versions[low - 1];
}

/**
 * Every state of every cached object inside a time window (ADR 0114). A version is the cached object itself (the
 * cache replaces objects, never changes them), so an object's current state costs a reference; only past states
 * hold memory of their own, counted by their size as JSON against `maxBytes`. Versions leave once no moment inside
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
      const object = versionAt(track.versions, at)?.object;
      if (object) out.push(object);
    }
    return out;
  }

  /** One object of `resource` by namespace and name as it was at `at`. */
  get(resource: string, namespace: string | undefined, name: string, at: number): KubeObject | undefined {
    for (const track of this.#byResource.get(resource) ?? []) {
      if (track.name !== name || (track.namespace ?? '') !== (namespace ?? '')) continue;
      const object = versionAt(track.versions, at)?.object;
      if (object) return object;
    }
    return undefined;
  }

  /** Every object whose state at `to` differs from its state at `from` (from < to). */
  changes(from: number, to: number): ObjectChange[] {
    const out: ObjectChange[] = [];
    for (const track of this.#tracks.values()) {
      const before = versionAt(track.versions, from);
      const after = versionAt(track.versions, to);
      if (before === after) continue;
      const then = before?.object ?? undefined;
      const now = after?.object ?? undefined;
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

  /** Drops what no moment inside the window needs any more, by age and then by size. */
  prune(now: number): void {
    this.#floor = Math.max(this.#floor, now - this.#options.windowMs);
    this.#dropBefore(this.#floor);
    while (this.#bytes > this.#options.maxBytes && this.#head < this.#superseded.length) {
      this.#floor = Math.max(this.#floor, (this.#superseded[this.#head] as Superseded).until);
      this.#dropBefore(this.#floor);
    }
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

  #push(track: Track, version: Version): void {
    const last = track.versions.at(-1);
    if (last && last.object === version.object) return;
    // Two changes seen in one millisecond (or a clock set back): the later is the state from then on.
    if (last && last.at >= version.at) {
      last.object = version.object;
      return;
    }
    if (last) {
      const bytes = last.object ? JSON.stringify(last.object).length : 0;
      this.#superseded.push({ track, until: version.at, bytes });
      this.#bytes += bytes;
    }
    track.versions.push(version);
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
      if (track.versions.length === 1 && only && !only.object && only.at <= floor) this.#forget(track);
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
