import { randomUUID } from 'node:crypto';
import type {
  NewTimelineEvent,
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
 * A ring of the last `capacity` events (`--history-limit`, default 10 000). Its epoch is new at every start,
 * so clients holding a cursor from an earlier process see it as stale. Beside the ring, in seq order, the same
 * events are kept sorted by time (ADR 0071): entries are not recorded in the order they happened.
 */
export class MemoryTimelineStore implements TimelineStore {
  readonly kind = 'memory' as const;
  readonly #capacity: number;
  readonly #ring: (TimelineEvent | undefined)[];
  /** The events of the ring, oldest first by timestamp, then by seq. */
  readonly #byTime: Timed[] = [];
  /** Keys of the events in the ring, so a replayed event is recorded once. */
  readonly #keys = new Map<string, number>();
  readonly #keyOf = new Map<number, string>();
  readonly #epoch = randomUUID();
  #latestSeq = 0;
  #count = 0;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new Error(`history limit must be a positive integer, got ${capacity}`);
    this.#capacity = capacity;
    this.#ring = new Array(capacity);
  }

  append(events: NewTimelineEvent[]): Promise<TimelineEvent[]> {
    const kept: TimelineEvent[] = [];
    for (const { key, ...fields } of events) {
      if (this.#keys.has(key)) continue;
      const seq = ++this.#latestSeq;
      const slot = seq % this.#capacity;
      const evicted = this.#ring[slot];
      if (evicted) {
        this.#keys.delete(this.#keyOf.get(evicted.seq) ?? '');
        this.#keyOf.delete(evicted.seq);
        this.#byTime.splice(this.#position({ ms: Date.parse(evicted.timestamp), event: evicted }), 1);
      } else this.#count += 1;
      const event: TimelineEvent = { seq, ...fields };
      this.#ring[slot] = event;
      this.#keys.set(key, seq);
      this.#keyOf.set(seq, key);
      // Most entries are the newest: their place is at the end, found in a few steps.
      const timed = { ms: Date.parse(event.timestamp), event };
      this.#byTime.splice(this.#position(timed), 0, timed);
      kept.push(event);
    }
    return Promise.resolve(kept);
  }

  /** Where `timed` is, or belongs, in the time index (binary search). */
  #position(timed: Timed): number {
    let low = 0;
    let high = this.#byTime.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (before(this.#byTime[middle] as Timed, timed)) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  query(query: TimelineQuery): Promise<TimelineEvent[]> {
    const test = matches(query);
    const out: TimelineEvent[] = [];
    if (query.order === 'recorded') {
      const oldest = this.#latestSeq - this.#count + 1;
      for (let seq = oldest; seq <= this.#latestSeq && out.length < query.limit; seq += 1) {
        const event = this.#ring[seq % this.#capacity];
        if (event && test(event)) out.push(event);
      }
    } else {
      for (let i = this.#byTime.length - 1; i >= 0 && out.length < query.limit; i -= 1) {
        const { event } = this.#byTime[i] as Timed;
        if (test(event)) out.push(event);
      }
    }
    return Promise.resolve(out);
  }

  stats(): Promise<TimelineStats> {
    return Promise.resolve({
      epoch: this.#epoch,
      count: this.#count,
      oldestSeq: this.#count === 0 ? 0 : this.#latestSeq - this.#count + 1,
      latestSeq: this.#latestSeq,
      pruneFailures: 0,
    });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
