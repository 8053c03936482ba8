import { AppError } from '@binnacle/common/server';
import type { Clock } from './clock.ts';

/**
 * Counts events per key in a sliding window; past the limit, more are refused until the oldest leaves the
 * window. Serves failed sign-ins (per IP and e-mail) and the fleet bucket (per user). Memory is bounded: the
 * least recently counted keys go first.
 */
export class SlidingWindowLimit {
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
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw new AppError(
        'rate_limited',
        `${what}: at most ${this.limit} per ${this.windowMs / 1000} s; retry in ${seconds} s`,
        { headers: { 'Retry-After': String(seconds) } },
      );
    }
    this.record(key);
  }

  forget(key: string): void {
    this.#events.delete(key);
  }

  #recent(key: string): number[] {
    const since = this.clock.now().getTime() - this.windowMs;
    return (this.#events.get(key) ?? []).filter((at) => at > since);
  }
}
