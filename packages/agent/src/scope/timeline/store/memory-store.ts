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
  /** The events kept, oldest first by timestamp, then by seq. */
  readonly #byTime: Timed[] = [];
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
      if (this.#events.length === this.#capacity) {
        // V8 moves an array's start instead of its elements: shifting the oldest out is cheap.
        const evicted = this.#events.shift() as TimelineEvent;
        this.#keys.delete(this.#keyOf.get(evicted.seq) ?? '');
        this.#keyOf.delete(evicted.seq);
        this.#byTime.splice(this.#position({ ms: Date.parse(evicted.timestamp), event: evicted }), 1);
      }
      this.#events.push(event);
      this.#keys.set(key, event.seq);
      this.#keyOf.set(event.seq, key);
      // Most entries are the newest: their place is at the end, found in a few steps.
      const timed = { ms: Date.parse(event.timestamp), event };
      this.#byTime.splice(this.#position(timed), 0, timed);
      kept.push(event);
    }
    return Promise.resolve(kept);
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
      for (
        let i = this.#after(query.sinceSeq ?? 0);
        i < this.#events.length && out.length < query.limit;
        i += 1
      ) {
        const event = this.#events[i] as TimelineEvent;
        if (test(event)) out.push(event);
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
