import { backoffDelay, probeSchedule } from '@binnacle/common';
import type { NewTimelineEvent, NumberedTimelineEvent, TimelineEvent, TimelineStore } from './types.ts';

/** How the timeline's writes fare, as `/api/health` names them (ADR 0073). */
export interface TimelineWrites {
  /** `failing` from the first write the store refused until the backlog is stored. */
  state: 'ok' | 'failing';
  /** The store's last refusal while failing (its message: no entry's content). */
  error?: string;
  failingSince?: string;
  /** Failed attempts of this episode. */
  attempts: number;
  /** Entries streamed already and waiting to be stored, oldest first. */
  backlog: number;
  /** Writes the store refused since the start. */
  storeErrors: number;
  /** Entries streamed but never stored since the start: the backlog was full, or the agent stopped first. */
  unstored: number;
}

/** Where the writer hands what happened to the recorder. */
export interface WriterSink {
  /** Entries numbered and, now or before, streamed to subscribers: each once, in seq order. */
  publish(events: TimelineEvent[]): void;
  /** A batch reached the store: how many it kept, how many it already had (a replay). */
  stored(kept: number, repeats: number): void;
  /** An entry streamed but never to be stored. */
  unstored(event: TimelineEvent): void;
}

export interface WriterOptions {
  /** The store's latest seq when it opened: numbering goes on above it. */
  latestSeq: number;
  /** Entries held for the store at most (the rest is streamed and counted as unstored). */
  backlogLimit?: number;
  log?: (level: 'error' | 'warn' | 'info', message: string, detail: Record<string, unknown>) => void;
  now?: () => Date;
}

/** About ten minutes of a busy cluster's changes; at ~1 KB each, ~10 MB. */
export const defaultBacklogLimit = 10_000;
/** A store's error message is quoted, never more than this. */
const errorChars = 300;
/** Entries one retry writes at most, as a flush does. */
const retryBatch = 500;

const withoutKey = ({ key: _key, ...event }: NumberedTimelineEvent): TimelineEvent => event;

/**
 * Numbers entries and writes them to the store in order (ADR 0073). While the store accepts, an entry is
 * streamed once stored (a replay the store already had is not streamed). While it refuses, entries are streamed
 * at once under their final seq and kept in a bounded backlog that is retried with back-off and stored in order
 * once it accepts again; new entries queue behind the backlog, so the store never holds a higher seq before a
 * lower one. One log line when an episode starts, one when the backlog first fills, one when it ends.
 */
export class TimelineWriter {
  readonly #store: TimelineStore;
  readonly #sink: WriterSink;
  readonly #options: WriterOptions;
  readonly #backlog: NumberedTimelineEvent[] = [];
  #latestSeq: number;
  #chain: Promise<void> = Promise.resolve();
  #failure: { since: Date; error: string; attempts: number; full: boolean } | undefined;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #storeErrors = 0;
  #unstored = 0;
  #closed = false;

  constructor(store: TimelineStore, sink: WriterSink, options: WriterOptions) {
    this.#store = store;
    this.#sink = sink;
    this.#options = options;
    this.#latestSeq = options.latestSeq;
  }

  /** Numbers the entries and writes them; resolves once they are stored, or streamed and in the backlog. */
  write(entries: NewTimelineEvent[]): Promise<void> {
    return this.#serial(async () => {
      const batch = entries.map((entry) => ({ ...entry, seq: ++this.#latestSeq }));
      if (this.#backlog.length === 0) {
        try {
          const kept = await this.#store.append(batch);
          this.#sink.stored(kept.length, batch.length - kept.length);
          if (kept.length > 0) this.#sink.publish(kept);
          return;
        } catch (error) {
          this.#refused(error);
        }
      }
      this.#sink.publish(batch.map(withoutKey));
      this.#hold(batch);
      this.#scheduleRetry();
    });
  }

  /** Entries streamed after `seq` that the store does not have yet (a stream's replay needs them). */
  backlog(seq: number): TimelineEvent[] {
    return this.#backlog.filter((e) => e.seq > seq).map(withoutKey);
  }

  health(): TimelineWrites {
    const failure = this.#failure;
    return {
      state: failure ? 'failing' : 'ok',
      error: failure?.error,
      failingSince: failure?.since.toISOString(),
      attempts: failure?.attempts ?? 0,
      backlog: this.#backlog.length,
      storeErrors: this.#storeErrors,
      unstored: this.#unstored,
    };
  }

  /** Stops retrying after one last attempt; what the store still refuses is logged as never stored. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retry) clearTimeout(this.#retry);
    this.#retry = undefined;
    await this.#serial(() => this.#drain());
    if (this.#backlog.length === 0) return;
    for (const event of this.#backlog.splice(0)) this.#lose(event);
    this.#options.log?.('error', 'the agent stops while the timeline store refuses writes: entries lost', {
      unstored: this.#unstored,
      error: this.#failure?.error,
    });
  }

  #serial(work: () => Promise<void>): Promise<void> {
    const run = this.#chain.then(work);
    // A failure belongs to the caller of this write; the next one still runs.
    this.#chain = run.catch(() => undefined);
    return run;
  }

  #refused(error: unknown): void {
    this.#storeErrors += 1;
    const message = (error instanceof Error ? error.message : String(error)).slice(0, errorChars);
    if (this.#failure) {
      this.#failure.error = message;
      this.#failure.attempts += 1;
      return;
    }
    this.#failure = { since: this.#options.now?.() ?? new Date(), error: message, attempts: 1, full: false };
    this.#options.log?.(
      'error',
      'the timeline store refuses writes: entries are streamed now and stored once it accepts them',
      { error: message, store: this.#store.kind },
    );
  }

  #hold(batch: NumberedTimelineEvent[]): void {
    const limit = this.#options.backlogLimit ?? defaultBacklogLimit;
    const room = Math.max(0, limit - this.#backlog.length);
    this.#backlog.push(...batch.slice(0, room));
    if (batch.length <= room) return;
    for (const event of batch.slice(room)) this.#lose(event);
    if (this.#failure && !this.#failure.full) {
      this.#failure.full = true;
      this.#options.log?.(
        'error',
        'the timeline backlog is full: further entries are streamed, never stored',
        {
          backlog: this.#backlog.length,
          error: this.#failure.error,
        },
      );
    }
  }

  #lose(event: NumberedTimelineEvent): void {
    this.#unstored += 1;
    this.#sink.unstored(withoutKey(event));
  }

  #scheduleRetry(): void {
    if (this.#retry || this.#closed || !this.#failure) return;
    // A local write is cheap to try: the probe schedule notices a store that accepts again within 3 s.
    const delay = backoffDelay(this.#failure.attempts - 1, Math.random, probeSchedule);
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      void this.#serial(() => this.#drain());
    }, delay);
  }

  /** Writes the backlog in order; ends the episode once it is stored, or schedules the next attempt. */
  async #drain(): Promise<void> {
    while (this.#backlog.length > 0) {
      const batch = this.#backlog.slice(0, retryBatch);
      try {
        const kept = await this.#store.append(batch);
        this.#backlog.splice(0, batch.length);
        this.#sink.stored(kept.length, batch.length - kept.length);
      } catch (error) {
        this.#refused(error);
        this.#scheduleRetry();
        return;
      }
    }
    const failure = this.#failure;
    if (!failure) return;
    this.#failure = undefined;
    this.#options.log?.('info', 'the timeline store accepts writes again; the backlog is stored', {
      failedAttempts: failure.attempts,
      failingMs: (this.#options.now?.() ?? new Date()).getTime() - failure.since.getTime(),
      unstored: this.#unstored,
    });
  }
}
