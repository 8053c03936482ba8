import type { KubeObject } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import { type ApiResource, resourceKey } from '../../kube/discovery.ts';
import type { InformerCache } from '../../kube/informer-cache.ts';
import { historyForm } from './form.ts';
import type { Gap, HistoryStore } from './history-store.ts';
import { HistoryJournal } from './journal.ts';
import { type GapChange, type Resumed, resume } from './resume.ts';
import { type HistoryWindow, type ObjectChange, ObjectVersions, type VersionsOptions } from './versions.ts';

export interface ClusterHistoryOptions extends Omit<VersionsOptions, 'journal'> {
  /** Keep ConfigMap values (off: their keys only). */
  configMapValues: boolean;
  /** Where the states are also written, so the past outlives a restart (`--timeline-storage sqlite`). */
  store?: HistoryStore;
  /** A kind listed again after a restart: the span not watched, and what changed or went meanwhile. */
  onResumed?: (resource: ApiResource, gap: Gap, changes: GapChange[]) => void;
  now?: () => number;
  log?: (message: string, detail: Record<string, unknown>) => void;
}

/** Events come and go by the thousand and have their own record, the timeline: their past states are not kept. */
const unkept = new Set(['events', 'events.events.k8s.io']);
const kept = (resource: ApiResource) => !unkept.has(resourceKey(resource));
const pruneEveryMs = 60_000;

/**
 * The cluster's past, fed by the informer cache (ADR 0114): each kind's objects as its first list found them, then
 * every change the watches deliver, at the time the agent saw it.
 */
export class ClusterHistory {
  readonly versions: ObjectVersions;
  readonly #cache: InformerCache;
  readonly #options: ClusterHistoryOptions;
  readonly #now: () => number;
  readonly #journal?: HistoryJournal;
  /** What the store held when the agent started, until each kind's first list takes it up. */
  #resumed?: Resumed;
  /** Spans a kind was not watched (the agent was stopped): its states then are not known. */
  readonly #gaps: Gap[] = [];
  #stop?: () => void;

  constructor(cache: InformerCache, options: ClusterHistoryOptions) {
    this.#cache = cache;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    const { store } = options;
    this.#journal =
      store && options.windowMs > 0
        ? new HistoryJournal(store, { now: this.#now, log: options.log })
        : undefined;
    const journal = this.#journal;
    this.versions = new ObjectVersions({
      ...options,
      ...(journal ? { journal: (step) => journal.add(step) } : {}),
    });
  }

  /**
   * Subscribes to the cache: call before the cluster starts, so every kind's first list is its history's start.
   * A window of 0 switches time travel off: nothing is kept, and every question about the past is refused.
   */
  start(): void {
    if (this.#off()) return;
    const form = historyForm;
    const values = this.#options.configMapValues;
    const { store } = this.#options;
    if (store) {
      this.#resumed = resume(store, this.versions, this.#now() - this.#options.windowMs);
      this.#gaps.push(...this.#resumed.gaps);
    }
    const offSynced = this.#cache.onSynced((resource, objects) => {
      if (!kept(resource)) return;
      const key = resourceKey(resource);
      const at = this.#now();
      const formed = objects.map((object) => form(object, values));
      const resumed = this.#resumed?.takeUp(key, formed, at);
      if (resumed) {
        this.#gaps.push(resumed.gap);
        this.#options.onResumed?.(resource, resumed.gap, resumed.changes);
      }
      this.versions.begin(key, formed, at);
    });
    const offEvent = this.#cache.onEvent((event) => {
      if (!kept(event.resource)) return;
      const key = resourceKey(event.resource);
      if (event.type === 'deleted') this.versions.remove(key, event.object, this.#now());
      else this.versions.record(key, form(event.object, values), this.#now());
    });
    const timer = setInterval(() => this.#prune(), pruneEveryMs);
    timer.unref();
    this.#stop = () => {
      offSynced();
      offEvent();
      clearInterval(timer);
      this.#journal?.close();
    };
  }

  stop(): void {
    this.#stop?.();
    this.#stop = undefined;
  }

  #prune(): void {
    const floor = this.versions.prune(this.#now());
    try {
      this.#options.store?.prune(floor);
    } catch (error) {
      this.#options.log?.('the stored history could not be pruned', { error: String(error) });
    }
    const kept = this.#gaps.filter((gap) => gap.to >= floor);
    this.#gaps.splice(0, this.#gaps.length, ...kept);
  }

  /** A kind's objects (in `namespaces`, when given) as they were at `at`; see `#window` for the refusals. */
  listAt(resource: ApiResource, at: number, namespaces?: readonly string[]): KubeObject[] {
    this.#window(resource, at);
    return this.versions.list(resourceKey(resource), at, namespaces);
  }

  /**
   * A kind's objects (in `namespaces`, when given) as they were at `at`, for an answer over every kind (counts,
   * the dashboard, the search): undefined when this kind's kept past cannot say (not kept, still loading, outside
   * its window or in a span not watched), where `listAt` refuses. Time travel off is still refused.
   */
  listKept(resource: ApiResource, at: number, namespaces?: readonly string[]): KubeObject[] | undefined {
    return this.#keeps(resource, at) ? this.versions.list(resourceKey(resource), at, namespaces) : undefined;
  }

  /** How many objects `listKept` would answer, without rebuilding them. */
  countAt(resource: ApiResource, at: number, namespaces?: readonly string[]): number | undefined {
    return this.#keeps(resource, at) ? this.versions.count(resourceKey(resource), at, namespaces) : undefined;
  }

  #keeps(resource: ApiResource, at: number): boolean {
    try {
      this.#window(resource, at);
      return true;
    } catch (error) {
      if (error instanceof AppError && error.code !== 'time_travel_off') return false;
      throw error;
    }
  }

  /** One object as it was at `at`; undefined when it did not exist then. */
  getAt(
    resource: ApiResource,
    namespace: string | undefined,
    name: string,
    at: number,
  ): KubeObject | undefined {
    this.#window(resource, at);
    return this.versions.get(resourceKey(resource), namespace, name, at);
  }

  /**
   * The moments the past can be asked for — of one kind, or the widest over every kind kept — and what the history
   * holds; no window before the kind (or any kind) synced.
   */
  summary(resource?: ApiResource): {
    window?: HistoryWindow;
    objects: number;
    versions: number;
    pastBytes: number;
  } {
    this.#refuseWhenOff();
    const now = this.#now();
    const all = this.#windows(now);
    const one = resource && all.get(resourceKey(resource));
    const windows = resource ? (one ? [one] : []) : [...all.values()];
    const oldest = Math.min(...windows.map((w) => w.oldest));
    return { ...(windows.length > 0 ? { window: { oldest, newest: now } } : {}), ...this.versions.stats() };
  }

  /** Each kept kind's window, by resource key; the kinds not synced yet have none. */
  #windows(now: number): Map<string, HistoryWindow> {
    const windows = new Map<string, HistoryWindow>();
    for (const resource of this.#cache.resources) {
      const range = kept(resource) && this.versions.window(resourceKey(resource), now);
      if (range) windows.set(resourceKey(resource), range);
    }
    return windows;
  }

  /**
   * What differs between the states at `from` and at `to` (both inside the window; a `from` after `to` reads the
   * difference backwards), and the kinds whose kept past does not reach back to the earlier of them (synced
   * since, e.g. a CRD installed later): their changes are not listed.
   */
  changesBetween(from: number, to: number): { changes: ObjectChange[]; notKept: string[] } {
    const windows = this.#widest(from, to);
    const notKept = [...windows].filter(([, w]) => w.oldest > Math.min(from, to)).map(([key]) => key);
    const skipped = new Set(notKept);
    const changes = this.versions.changes(from, to).filter((change) => !skipped.has(change.resource));
    return { changes, notKept: notKept.sort() };
  }

  /**
   * Refuses moments no kind can answer for: time travel off (404), nothing synced yet (503), outside the widest
   * window or in a span not watched (410). Answers each kind's window, by resource key.
   */
  #widest(...moments: number[]): Map<string, HistoryWindow> {
    this.#refuseWhenOff();
    const now = this.#now();
    const windows = this.#windows(now);
    if (windows.size === 0)
      throw new AppError('not_ready', 'no kind has synced yet, so there is no past to look at');
    // The widest window bounds the moments; kinds whose own window starts later say so themselves.
    const oldest = Math.min(...[...windows.values()].map((w) => w.oldest));
    for (const moment of moments) {
      outside({ oldest, newest: now }, moment);
      this.#notWatched(moment);
    }
    return windows;
  }

  /** Refuses a moment no kind can answer for (see `#widest`); the counts of each kind at it come one by one. */
  refuseUnknown(at: number): void {
    this.#widest(at);
  }

  #off(): boolean {
    return this.#options.windowMs === 0;
  }

  #refuseWhenOff(): void {
    if (this.#off())
      throw new AppError(
        'time_travel_off',
        'time travel is switched off on this agent (--time-travel-window 0s): no past states are kept',
      );
  }

  /** Refuses a kind not kept (400 unknown_kind), one still loading (503) and a moment outside its window (410). */
  #window(resource: ApiResource, at: number): void {
    this.#refuseWhenOff();
    const key = resourceKey(resource);
    if (!kept(resource))
      throw new AppError(
        'unknown_kind',
        `${key}: past states of Events are not kept; the timeline lists them`,
      );
    if (!this.#cache.caches(resource))
      throw new AppError(
        'unknown_kind',
        `${key} is not cached by the agent, so its past states are not kept`,
      );
    const window = this.versions.window(key, this.#now());
    if (!window)
      throw new AppError('not_ready', `${key} is still loading; its history starts once it has synced`);
    outside(window, at);
    this.#notWatched(at, key);
  }

  /** Refuses a moment the agent did not watch (of `resource`, or of any kind): 410 with the span and the window. */
  #notWatched(at: number, resource?: string): void {
    const gap = this.#gaps.find((g) => (!resource || g.resource === resource) && at > g.from && at < g.to);
    if (!gap) return;
    const window = resource ? this.versions.window(resource, this.#now()) : undefined;
    throw new AppError(
      'outside_history',
      `the agent did not watch the cluster from ${iso(gap.from)} to ${iso(gap.to)} (it was not running), so ${iso(at)} is not known`,
      {
        extra: {
          ...(window ? { oldest: iso(window.oldest), newest: iso(window.newest) } : {}),
          notWatched: { from: iso(gap.from), to: iso(gap.to) },
        },
      },
    );
  }
}

/** A moment in RFC 3339; one beyond what a Date holds (a duration of millions of years back) as its milliseconds. */
export const iso = (ms: number) =>
  Number.isNaN(new Date(ms).getTime()) ? `${ms} ms` : new Date(ms).toISOString();

function outside(window: HistoryWindow, at: number): void {
  if (at >= window.oldest && at <= window.newest) return;
  throw new AppError(
    'outside_history',
    `${iso(at)} is outside the kept history, ${iso(window.oldest)} to ${iso(window.newest)}`,
    { extra: { oldest: iso(window.oldest), newest: iso(window.newest) } },
  );
}
