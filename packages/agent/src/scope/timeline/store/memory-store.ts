import { randomUUID } from 'node:crypto';
import type {
  NumberedTimelineEvent,
  TimelineEvent,
  TimelineQuery,
  TimelineStats,
  TimelineStore,
} from '../types.ts';
import { matches } from './filter.ts';

/** An event with its time in milliseconds, as the time index holds it. */
interface Timed {
  ms: number;
  event: TimelineEvent;
}

/** Whether `a` comes before `b` in time order: earlier, or recorded earlier at the same instant. */
const before = (a: Timed, b: Timed) => a.ms < b.ms || (a.ms === b.ms && a.event.seq < b.event.seq);

/**
 * The last `capacity` events (`--history-limit`, default 10 000), oldest recorded first. Its epoch is new at
 * every start, so clients holding a cursor from an earlier process see it as stale. Beside them the same events
 * are kept sorted by time (ADR 0071): entries are not recorded in the order they happened.
 */
export class MemoryTimelineStore implements TimelineStore {
  readonly kind = 'memory' as const;
  readonly #capacity: number;
  /** In seq order; seqs have gaps where a known key was refused (ADR 0073), so a position is not a seq. */
  readonly #events: TimelineEvent[] = [];
  /** The events kept, oldest first by timestamp, then by seq, as of the last read (`#indexed`). */
  #byTime: Timed[] = [];
  /** Events appended since the time index was last brought up to date, in seq order. */
  #unindexed: Timed[] = [];
  /** The oldest seq kept when the time index was last brought up to date: below it, nothing is in the index. */
  #indexedFrom = 0;
  /** Keys of the events kept, so a replayed event is recorded once. */
  readonly #keys = new Map<string, number>();
  readonly #keyOf = new Map<number, string>();
  readonly #epoch = randomUUID();
  #latestSeq = 0;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new Error(`history limit must be a positive integer, got ${capacity}`);
    this.#capacity = capacity;
  }

  append(events: NumberedTimelineEvent[]): Promise<TimelineEvent[]> {
    const unordered = events.find((e, i) => e.seq <= (events[i - 1]?.seq ?? this.#latestSeq));
    if (unordered)
      return Promise.reject(
        new Error(`seq ${unordered.seq} is out of order (the latest is ${this.#latestSeq})`),
      );
    const kept: TimelineEvent[] = [];
    for (const { key, ...event } of events) {
      this.#latestSeq = event.seq;
      if (this.#keys.has(key)) continue;
      this.#events.push(event);
      this.#keys.set(key, event.seq);
      this.#keyOf.set(event.seq, key);
      this.#unindexed.push({ ms: Date.parse(event.timestamp), event });
      kept.push(event);
    }
    // The oldest leave in one cut: shifted out one by one, a first sync's backlog spent most of its time there
    // under load (ADR 0100).
    for (const oldest of this.#events.splice(0, Math.max(0, this.#events.length - this.#capacity))) {
      this.#keys.delete(this.#keyOf.get(oldest.seq) ?? '');
      this.#keyOf.delete(oldest.seq);
    }
    // Bounded between queries: past the capacity the entries waiting for the index are merged in.
    if (this.#unindexed.length > this.#capacity) this.#indexed();
    return Promise.resolve(kept);
  }

  /**
   * The time index, brought up to date when it is read: what was appended since, sorted, is merged in one pass
   * and what was evicted (every seq below the oldest kept) leaves it. Merged at every append, a first sync's
   * backfill (200 batches at 10 000 pods) moved the whole index once per batch (ADR 0100).
   */
  #indexed(): Timed[] {
    const oldestSeq = this.#events[0]?.seq ?? this.#latestSeq + 1;
    const stays = (timed: Timed) => timed.event.seq >= oldestSeq;
    const evicted = oldestSeq > this.#indexedFrom;
    if (this.#unindexed.length === 0 && !evicted) return this.#byTime;
    const older = evicted ? this.#byTime.filter(stays) : this.#byTime;
    const added = this.#unindexed.filter(stays).sort((a, b) => (before(a, b) ? -1 : 1));
    this.#unindexed = [];
    this.#indexedFrom = oldestSeq;
    if (added.length === 0) {
      this.#byTime = older;
      return older;
    }
    const merged: Timed[] = [];
    let i = 0;
    let j = 0;
    while (i < older.length || j < added.length) {
      const next = j >= added.length || (i < older.length && before(older[i] as Timed, added[j] as Timed));
      merged.push((next ? older[i++] : added[j++]) as Timed);
    }
    this.#byTime = merged;
    return merged;
  }

  /** The position of the first event with a seq above `seq` (binary search). */
  #after(seq: number): number {
    let low = 0;
    let high = this.#events.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.#events[middle] as TimelineEvent).seq <= seq) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  query(query: TimelineQuery): Promise<TimelineEvent[]> {
    const test = matches(query);
    const out: TimelineEvent[] = [];
    if (query.order === 'recorded') {
      for (
        let i = this.#after(query.sinceSeq ?? 0);
        i < this.#events.length && out.length < query.limit;
        i += 1
      ) {
        const event = this.#events[i] as TimelineEvent;
        if (test(event)) out.push(event);
      }
    } else {
      const byTime = this.#indexed();
      for (let i = byTime.length - 1; i >= 0 && out.length < query.limit; i -= 1) {
        const { event } = byTime[i] as Timed;
        if (test(event)) out.push(event);
      }
    }
    return Promise.resolve(out);
  }

  stats(): Promise<TimelineStats> {
    return Promise.resolve({
      epoch: this.#epoch,
      count: this.#events.length,
      oldestSeq: this.#events[0]?.seq ?? 0,
      latestSeq: this.#latestSeq,
      pruneFailures: 0,
    });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
