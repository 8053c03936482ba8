import { setTimeout as pause } from 'node:timers/promises';
import type { KubeObject } from '@binnacle/common';
import type { ApiResource } from '../../kube/discovery.ts';
import type { CacheEvent } from '../../kube/informer.ts';
import type { InformerCache } from '../../kube/informer-cache.ts';
import type { GapChange } from '../history/resume.ts';
import { computeDiff } from './diff.ts';
import {
  fromKubeEvent,
  historicalEntries,
  lifecycleEntry,
  notWatchedEntry,
  updatedEntry,
} from './entries.ts';
import { type DropReason, noiseReason } from './noise.ts';
import type { NewTimelineEvent, TimelineEvent, TimelineStore } from './types.ts';
import { TimelineWriter, type TimelineWrites, type WriterOptions } from './writer.ts';

export interface Drop {
  at: string;
  reason: DropReason;
  kind: string;
  namespace?: string;
  name: string;
  type: string;
}

export interface RecorderStats {
  received: number;
  recorded: number;
  dropped: Record<string, number>;
  recentDrops: Drop[];
  queued: number;
  storeErrors: number;
}

export type RecorderOptions = Omit<WriterOptions, 'now'> & { now?: () => Date };

/** A change after a quiet spell is written and streamed at once; under a stream of changes, at most this often. */
const flushEveryMs = 20;
const maxBatch = 500;
/**
 * A batch that reads a backfill stops at this many entries: the event loop is held for the length of a batch, and
 * requests served meanwhile wait that long at each of their turns (ADR 0100).
 */
const backfillBatch = 100;
const recentDropCount = 200;

type Subscriber = (events: TimelineEvent[]) => void;

/**
 * A kind that just synced, whose objects' past becomes entries only as the writer gets to them: at 60 000 pods,
 * making all 120 000 entries at once held the event loop for a quarter of a second and their memory until the
 * last batch was stored (ADR 0100).
 */
class Backfill {
  readonly objects: readonly KubeObject[];
  readonly entriesOf: (object: KubeObject) => NewTimelineEvent[];
  next = 0;

  constructor(objects: readonly KubeObject[], entriesOf: (object: KubeObject) => NewTimelineEvent[]) {
    this.objects = objects;
    this.entriesOf = entriesOf;
  }

  get remaining(): number {
    return this.objects.length - this.next;
  }
}

/**
 * Turns what the informers see into timeline entries: diffs of updates (nothing when only volatile fields
 * moved), adds and deletes, Kubernetes Events, and — when a kind first syncs — what the objects' metadata
 * says about their past. Noise is dropped at capture with a counted reason. Entries carry keys, so replays,
 * relists and restarts never record the same thing twice. Recorded entries go to subscribers (the SSE stream);
 * while the store refuses writes they go at once and are stored later (TimelineWriter, ADR 0073).
 */
export class ChangeRecorder {
  readonly #store: TimelineStore;
  readonly #cache: InformerCache;
  readonly #now: () => Date;
  readonly #writer: TimelineWriter;
  /** Entries of what happens now (changes, Events, actions): written first, in the order they came. */
  readonly #queue: NewTimelineEvent[] = [];
  /** Kinds' pasts, read when no entry of the present waits: an action's answer never waits for a first sync. */
  readonly #backfills: Backfill[] = [];
  readonly #subscribers = new Set<Subscriber>();
  readonly #stats: RecorderStats = {
    received: 0,
    recorded: 0,
    dropped: {},
    recentDrops: [],
    queued: 0,
    storeErrors: 0,
  };
  /** Actions' entries, and how to tell each `record` call its entry was written (not the backfills after it). */
  readonly #recording = new Map<NewTimelineEvent, { resolve(): void; reject(error: unknown): void }>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #lastFlushAt = 0;
  #flushing: Promise<void> = Promise.resolve();
  #unsubscribe: (() => void)[] = [];

  constructor(cache: InformerCache, store: TimelineStore, options: RecorderOptions) {
    this.#cache = cache;
    this.#store = store;
    this.#now = options.now ?? (() => new Date());
    this.#writer = new TimelineWriter(
      store,
      {
        publish: (events) => {
          // One subscriber's bug must not keep a change from the others, nor stop the recorder.
          for (const subscriber of this.#subscribers)
            try {
              subscriber(events);
            } catch (error) {
              options.log?.('error', 'a timeline subscriber failed', { error: String(error) });
            }
        },
        stored: (kept, repeats) => {
          this.#stats.recorded += kept;
          // Replays after a restart or relist are expected; counted, not listed one by one.
          if (repeats > 0)
            this.#stats.dropped.already_recorded = (this.#stats.dropped.already_recorded ?? 0) + repeats;
        },
        unstored: (event) => this.drop('store_backlog_full', event.kind, event, event.eventType),
      },
      { ...options, now: this.#now },
    );
  }

  get store(): TimelineStore {
    return this.#store;
  }

  start(): void {
    this.#unsubscribe = [
      this.#cache.onEvent((e) => this.#onChange(e)),
      this.#cache.onSynced((r, objects) => this.#onSynced(r, objects)),
    ];
  }

  subscribe(subscriber: Subscriber): () => void {
    this.#subscribers.add(subscriber);
    return () => this.#subscribers.delete(subscriber);
  }

  /** How writes to the store fare (`/api/health`). */
  writes(): TimelineWrites {
    return this.#writer.health();
  }

  /** Entries streamed after `seq` that the store does not hold yet (ADR 0073). */
  backlog(seq: number): TimelineEvent[] {
    return this.#writer.backlog(seq);
  }

  stats(): RecorderStats {
    return {
      ...this.#stats,
      storeErrors: this.#writer.health().storeErrors,
      dropped: { ...this.#stats.dropped },
      recentDrops: [...this.#stats.recentDrops],
      queued: this.#backfills.reduce((sum, backfill) => sum + backfill.remaining, this.#queue.length),
    };
  }

  /** Counts a drop; the SSE stream reports clients it had to cut loose the same way. */
  drop(reason: DropReason, kind: string, object: { namespace?: string; name?: string }, type: string): void {
    this.#stats.dropped[reason] = (this.#stats.dropped[reason] ?? 0) + 1;
    this.#stats.recentDrops.push({
      at: this.#now().toISOString(),
      reason,
      kind,
      namespace: object.namespace,
      name: object.name ?? '',
      type,
    });
    if (this.#stats.recentDrops.length > recentDropCount) this.#stats.recentDrops.shift();
  }

  #onSynced(resource: ApiResource, objects: KubeObject[]): void {
    if (objects.length === 0) return;
    const events = resource.kind === 'Event' && resource.group === '';
    this.#backfills.push(
      new Backfill(objects, (object) =>
        events ? [fromKubeEvent(object)] : historicalEntries(resource, object),
      ),
    );
    void this.flush();
  }

  #onChange(event: CacheEvent): void {
    const { resource, object, old, type } = event;
    this.#stats.received += 1;
    if (resource.kind === 'Event' && resource.group === '') {
      if (type !== 'deleted') this.#enqueue(fromKubeEvent(object));
      return;
    }
    const noise = noiseReason(resource.kind, object, type);
    if (noise) {
      this.drop(noise, resource.kind, object.metadata ?? {}, type);
      return;
    }
    const now = this.#now().toISOString();
    if (type === 'added') this.#enqueue(lifecycleEntry(resource, object, 'created', 'informer', now));
    else if (type === 'deleted')
      this.#enqueue(lifecycleEntry(resource, old ?? object, 'deleted', 'informer', now));
    else {
      const diff = old ? computeDiff(old, object) : undefined;
      if (!diff) this.drop('no_change', resource.kind, object.metadata ?? {}, type);
      else this.#enqueue(updatedEntry(resource, object, diff, now));
    }
  }

  /**
   * A kind listed again after a restart (ADR 0114): the span the agent did not watch, once, and what the kind's
   * objects became meanwhile, as changes seen now (their field diffs against the states kept before the restart).
   */
  resumed(resource: ApiResource, gap: { from: number; to: number }, changes: readonly GapChange[]): void {
    this.#enqueue(notWatchedEntry(gap));
    for (const { before, after } of changes)
      this.#onChange(
        after
          ? { type: 'updated', resource, object: after, old: before, relist: true }
          : { type: 'deleted', resource, object: before, old: before, relist: true },
      );
  }

  /**
   * Records an entry that did not come from a watch (an action a person took through Binnacle) and resolves
   * once it is stored and streamed, so the answer to the action and the timeline agree.
   */
  record(entry: NewTimelineEvent): Promise<void> {
    const written = new Promise<void>((resolve, reject) => this.#recording.set(entry, { resolve, reject }));
    this.#enqueue(entry);
    void this.flush();
    return written;
  }

  #enqueue(entry: NewTimelineEvent): void {
    this.#queue.push(entry);
    if (this.#queue.length >= maxBatch) void this.flush();
    else {
      // What one watch chunk brings arrives in the same turn of the event loop: a zero delay still batches it.
      const wait = Math.max(0, this.#lastFlushAt + flushEveryMs - performance.now());
      this.#timer ??= setTimeout(() => void this.flush(), wait);
    }
  }

  /**
   * Writes what is queued; resolves when subscribers have it and it is in the store, or, while the store
   * refuses, in the writer's backlog.
   */
  flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#lastFlushAt = performance.now();
    this.#flushing = this.#flushing.then(async () => {
      while (this.#pending) {
        const started = performance.now();
        const batch = this.#take();
        await this.#writer.write(batch).then(
          () => this.#settle(batch, (waiting) => waiting.resolve()),
          (error: unknown) => {
            this.#settle(batch, (waiting) => waiting.reject(error));
            throw error;
          },
        );
        // A big cluster's first sync queues 100 000 entries or more: after each batch the event loop is left
        // free for as long as the batch took, so requests meanwhile see at most half the agent's time taken
        // (ADR 0100) instead of waiting behind every batch in turn.
        if (this.#pending) await pause(performance.now() - started);
      }
    });
    return this.#flushing;
  }

  #settle(
    batch: NewTimelineEvent[],
    how: (waiting: { resolve(): void; reject(error: unknown): void }) => void,
  ): void {
    if (this.#recording.size === 0) return;
    for (const entry of batch) {
      const waiting = this.#recording.get(entry);
      if (!waiting) continue;
      this.#recording.delete(entry);
      how(waiting);
    }
  }

  get #pending(): boolean {
    return this.#queue.length > 0 || this.#backfills.length > 0;
  }

  /** The next batch: entries of the present first, else up to `backfillBatch` entries read from the oldest backfill. */
  #take(): NewTimelineEvent[] {
    if (this.#queue.length > 0) return this.#queue.splice(0, maxBatch);
    const batch: NewTimelineEvent[] = [];
    const backfill = this.#backfills[0];
    while (backfill && batch.length < backfillBatch && backfill.remaining > 0)
      batch.push(...backfill.entriesOf(backfill.objects[backfill.next++] as KubeObject));
    if (backfill?.remaining === 0) this.#backfills.shift();
    return batch;
  }

  async stop(): Promise<void> {
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    await this.flush();
    await this.#writer.close();
  }
}
