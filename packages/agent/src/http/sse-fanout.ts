import type { FastifyReply } from 'fastify';
import type { SessionKind, SessionRegistry } from './sessions.ts';
import { type SseOptions, SseStream, type StreamEvents, StreamLimit } from './sse.ts';

export interface FanoutOptions extends SseOptions {
  /** Who is full, in the refusal: `<label> already has <max> clients; retry later`. */
  label: string;
  /** Streams open at once; the next is refused with 503 `too_many_streams` before it starts. */
  max: number;
  /** How GET /api/sessions lists each stream. */
  kind: SessionKind;
  /** Every stream ends (with `end`) after this long, whatever happens; the client reconnects. */
  maxDurationMs?: number;
  /** The last subscriber went: what they shared (a follow, a timer) can stop. */
  onIdle?: () => void;
}

/** What a feature keeps per open stream: at least the stream itself. */
export interface Subscriber<Events extends StreamEvents> {
  readonly stream: SseStream<Events>;
}

/**
 * The open SSE streams of one route family (ADR 0079). Opening one takes a slot of the family's cap (503
 * `too_many_streams` before any byte is sent when none is free), registers it as a session, so a shutdown or a
 * context switch ends it with `end` and the reason, and enforces the total duration; a stream that closes for
 * whatever reason — the reader went, fell too far behind, was ended — frees all of that and leaves the set.
 * Features keep only what they stream: the subscribers, iterated to fan one producer out to all of them.
 */
export class SseFanout<Events extends StreamEvents, S extends Subscriber<Events>> implements Iterable<S> {
  readonly #sessions: SessionRegistry;
  readonly #options: FanoutOptions;
  readonly #limit: StreamLimit;
  readonly #subscribers = new Set<S>();

  constructor(sessions: SessionRegistry, options: FanoutOptions) {
    this.#sessions = sessions;
    this.#options = options;
    this.#limit = new StreamLimit(options.label, options.max);
  }

  get size(): number {
    return this.#subscribers.size;
  }

  [Symbol.iterator](): Iterator<S> {
    return this.#subscribers.values();
  }

  /** Opens the stream of one subscriber, made by `subscriber` around it; throws the refusal when full. */
  open(reply: FastifyReply, target: string, subscriber: (stream: SseStream<Events>) => S): S {
    const release = this.#limit.acquire();
    const stream = new SseStream<Events>(reply, this.#options);
    const session = this.#sessions.open(this.#options.kind, target, (reason) => stream.finish(reason));
    const { maxDurationMs } = this.#options;
    const deadline =
      maxDurationMs === undefined
        ? undefined
        : setTimeout(
            () => stream.finish(`streams end after ${maxDurationMs / 3_600_000}h; reconnect to continue`),
            maxDurationMs,
          );
    deadline?.unref();
    const created = subscriber(stream);
    this.#subscribers.add(created);
    stream.onClose(() => {
      clearTimeout(deadline);
      session.end();
      release();
      this.#subscribers.delete(created);
      if (this.#subscribers.size === 0) this.#options.onIdle?.();
    });
    return created;
  }

  /** Closes every stream (the routes are closing). */
  close(): void {
    for (const subscriber of this.#subscribers) subscriber.stream.close();
  }
}
