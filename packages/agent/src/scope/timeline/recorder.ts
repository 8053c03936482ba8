import { setTimeout as pause } from 'node:timers/promises';
import type { KubeObject } from '@binnacle/common';
import type { ApiResource } from '../../kube/discovery.ts';
import type { CacheEvent } from '../../kube/informer.ts';
import type { InformerCache } from '../../kube/informer-cache.ts';
import { computeDiff } from './diff.ts';
import { fromKubeEvent, historicalEntries, lifecycleEntry, updatedEntry } from './entries.ts';
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

/** What waits to be written, in the order it came: entries, and backfills read as they are reached. */
type Pending = NewTimelineEvent | Backfill;

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
  readonly #queue: Pending[] = [];
  readonly #subscribers = new Set<Subscriber>();
  readonly #stats: RecorderStats = {
    received: 0,
    recorded: 0,
    dropped: {},
    recentDrops: [],
    queued: 0,
    storeErrors: 0,
  };
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
      queued: this.#queue.reduce((sum, item) => sum + (item instanceof Backfill ? item.remaining : 1), 0),
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
    this.#queue.push(
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
   * Records an entry that did not come from a watch (an action a person took through Binnacle) and resolves
   * once it is stored and streamed, so the answer to the action and the timeline agree.
   */
  record(entry: NewTimelineEvent): Promise<void> {
    this.#enqueue(entry);
    return this.flush();
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
      while (this.#queue.length > 0) {
        const started = performance.now();
        await this.#writer.write(this.#take());
        // A big cluster's first sync queues 100 000 entries or more: after each batch the event loop is left
        // free for as long as the batch took, so requests meanwhile see at most half the agent's time taken
        // (ADR 0100) instead of waiting behind every batch in turn.
        if (this.#queue.length > 0) await pause(performance.now() - started);
      }
    });
    return this.#flushing;
  }

  /**
   * The next batch: about `maxBatch` entries from the head of the queue, fewer (`backfillBatch`) once it reads a
   * backfill, which is read only as far as the batch needs.
   */
  #take(): NewTimelineEvent[] {
    const batch: NewTimelineEvent[] = [];
    while (batch.length < maxBatch && this.#queue.length > 0) {
      const head = this.#queue[0] as Pending;
      if (head instanceof Backfill) {
        if (batch.length >= backfillBatch) break;
        while (batch.length < backfillBatch && head.remaining > 0)
          batch.push(...head.entriesOf(head.objects[head.next++] as KubeObject));
        if (head.remaining === 0) this.#queue.shift();
        continue;
      }
      let entries = 1;
      while (
        entries < this.#queue.length &&
        batch.length + entries < maxBatch &&
        !(this.#queue[entries] instanceof Backfill)
      )
        entries += 1;
      batch.push(...(this.#queue.splice(0, entries) as NewTimelineEvent[]));
    }
    return batch;
  }

  async stop(): Promise<void> {
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    await this.flush();
    await this.#writer.close();
  }
}
