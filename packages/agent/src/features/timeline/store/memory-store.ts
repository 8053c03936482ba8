import { randomUUID } from 'node:crypto';
import type {
  NewTimelineEvent,
  TimelineEvent,
  TimelineQuery,
  TimelineStats,
  TimelineStore,
} from '../types.ts';
import { matches } from './filter.ts';

/**
 * A ring of the last `capacity` events (`--history-limit`, default 10 000). Its epoch is new at every start,
 * so clients holding a cursor from an earlier process see it as stale.
 */
export class MemoryTimelineStore implements TimelineStore {
  readonly kind = 'memory' as const;
  readonly #capacity: number;
  readonly #ring: (TimelineEvent | undefined)[];
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
      } else this.#count += 1;
      const event: TimelineEvent = { seq, ...fields };
      this.#ring[slot] = event;
      this.#keys.set(key, seq);
      this.#keyOf.set(seq, key);
      kept.push(event);
    }
    return Promise.resolve(kept);
  }

  query(query: TimelineQuery): Promise<TimelineEvent[]> {
    const test = matches(query);
    const out: TimelineEvent[] = [];
    const oldest = this.#latestSeq - this.#count + 1;
    const ascending = query.order === 'asc';
    for (let i = 0; i < this.#count && out.length < query.limit; i += 1) {
      const seq = ascending ? oldest + i : this.#latestSeq - i;
      const event = this.#ring[seq % this.#capacity];
      if (event && test(event)) out.push(event);
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
