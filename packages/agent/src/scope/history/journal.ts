import type { HistoryStore, StoredState } from './history-store.ts';
import type { JournalStep } from './versions.ts';

export interface JournalOptions {
  now: () => number;
  log?: (message: string, detail: Record<string, unknown>) => void;
}

/** A whole state every this many, so a restart replays at most this many operations per object. */
const longestChain = 16;
/** Written at most this often; a quiet agent still marks that it watched (a restart's gap starts there). */
const flushEveryMs = 1000;
const markEveryMs = 10_000;
/** States one transaction carries: the write holds the agent's only thread while it runs. */
const batchStates = 500;
/** Past this many unwritten (the disk refused them for long), the oldest go and their objects are rewritten whole. */
const maxQueued = 100_000;

/**
 * Writes the history's new states to its SQLite file (ADR 0114): whole at an object's first and after
 * `longestChain` in a row as operations, each serialized only when its batch is written, a batch a turn of the
 * event loop. A write that fails is retried on the next turn; what cannot wait is dropped and its object
 * written whole next time, so no stored operation builds on a state the file does not have.
 */
export class HistoryJournal {
  readonly #store: HistoryStore;
  readonly #options: JournalOptions;
  #queue: JournalStep[] = [];
  /** Objects with a dropped state: their next one is written whole. */
  readonly #rewrite = new Set<string>();
  readonly #timer: ReturnType<typeof setInterval>;
  #lastMark = 0;
  #failures = 0;
  #closed = false;

  constructor(store: HistoryStore, options: JournalOptions) {
    this.#store = store;
    this.#options = options;
    this.#timer = setInterval(() => this.flush(), flushEveryMs);
    this.#timer.unref();
  }

  /** Takes a new state; answers whether it will be written as operations (see `JournalStep`). */
  add(step: JournalStep): boolean {
    const asOperations =
      step.forward !== undefined && (step.journaled ?? 0) + 1 < longestChain && !this.#rewrite.has(step.uid);
    this.#rewrite.delete(step.uid);
    if (!asOperations) delete step.forward;
    this.#queue.push(step);
    if (this.#queue.length > maxQueued)
      for (const dropped of this.#queue.splice(0, this.#queue.length - maxQueued))
        this.#rewrite.add(dropped.uid);
    return asOperations;
  }

  /** Writes what waits, a batch now and the rest on the next turns of the event loop. */
  flush(): void {
    if (this.#closed) return;
    const now = this.#options.now();
    if (this.#queue.length === 0 && now - this.#lastMark < markEveryMs) return;
    const batch = this.#queue.slice(0, batchStates);
    try {
      this.#store.append(batch.map(storedOf), now);
      this.#queue = this.#queue.slice(batch.length);
      this.#lastMark = now;
      this.#failures = 0;
    } catch (error) {
      this.#failures += 1;
      if (this.#failures === 1)
        this.#options.log?.('the history could not be written; retrying each second', {
          error: String(error),
        });
      return;
    }
    if (this.#queue.length > 0) setImmediate(() => this.flush());
  }

  /**
   * Writes everything that waits and marks the moment it stopped watching; the store stays open for its owner
   * to close. A store that refuses writes loses what waited: the next start finds the gap from its last write.
   */
  close(): void {
    clearInterval(this.#timer);
    this.#lastMark = Number.NEGATIVE_INFINITY;
    while (this.#failures === 0 && (this.#queue.length > 0 || this.#lastMark === Number.NEGATIVE_INFINITY))
      this.flush();
    this.#closed = true;
  }
}

function storedOf(step: JournalStep): StoredState {
  const { uid, resource, namespace, name, at, state, forward } = step;
  const base = { uid, resource, ...(namespace ? { namespace } : {}), name, at };
  if (!state) return { ...base, form: 'deleted' };
  const resourceVersion = state.metadata?.resourceVersion;
  return {
    ...base,
    form: forward ? 'ops' : 'whole',
    ...(resourceVersion ? { resourceVersion } : {}),
    body: JSON.stringify(forward ?? state),
  };
}
