import { AppError } from '@binnacle/common/server';
import type { Clock } from './clock.ts';

/** A limit on events per key in a sliding window: in this process, or shared by the replicas through Redis. */
export interface RateLimit {
  readonly limit: number;
  readonly windowMs: number;
  /** Counts one event, or throws 429 `rate_limited` with Retry-After when the window is full. */
  take(key: string, what: string): void | Promise<void>;
  /** Empties the key's window. */
  forget(key: string): void | Promise<void>;
}

/** The 429 of a full window: Retry-After in whole seconds, and the limit named in the message. */
export function rateLimited(what: string, window: RateLimit, waitMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new AppError(
    'rate_limited',
    `${what}: at most ${window.limit} per ${window.windowMs / 1000} s; retry in ${seconds} s`,
    { headers: { 'Retry-After': String(seconds) } },
  );
}

/**
 * Counts events per key in a sliding window; past the limit, more are refused until the oldest leaves the
 * window. Serves failed sign-ins (per IP and e-mail) and the fleet bucket (per user). Memory is bounded: the
 * least recently counted keys go first.
 */
export class SlidingWindowLimit implements RateLimit {
  readonly #events = new Map<string, number[]>();
  readonly clock: Clock;
  readonly limit: number;
  readonly windowMs: number;
  readonly maxKeys: number;

  constructor(clock: Clock, options: { limit: number; windowMs: number; maxKeys?: number }) {
    this.clock = clock;
    this.limit = options.limit;
    this.windowMs = options.windowMs;
    this.maxKeys = options.maxKeys ?? 10_000;
  }

  /** Milliseconds until another event is allowed; 0 when it is allowed now. */
  retryAfterMs(key: string): number {
    const recent = this.#recent(key);
    if (recent.length < this.limit) return 0;
    return (recent[recent.length - this.limit] as number) + this.windowMs - this.clock.now().getTime();
  }

  record(key: string): void {
    const recent = this.#recent(key);
    recent.push(this.clock.now().getTime());
    this.#events.delete(key);
    this.#events.set(key, recent);
    if (this.#events.size > this.maxKeys) this.#events.delete(this.#events.keys().next().value as string);
  }

  /**
   * Counts one event for `key`, or throws 429 `rate_limited` with Retry-After (whole seconds) naming `what`
   * when the window is full.
   */
  take(key: string, what: string): void {
    const waitMs = this.retryAfterMs(key);
    if (waitMs > 0) throw rateLimited(what, this, waitMs);
    this.record(key);
  }

  forget(key: string): void {
    this.#events.delete(key);
  }

  /** The times (ms) of the key's events still in the window, oldest first. */
  recent(key: string): readonly number[] {
    return this.#recent(key);
  }

  #recent(key: string): number[] {
    const since = this.clock.now().getTime() - this.windowMs;
    return (this.#events.get(key) ?? []).filter((at) => at > since);
  }
}
