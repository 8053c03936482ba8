import type { Clock } from './clock.ts';

/**
 * Counts failed attempts per key (IP and e-mail) in a sliding window; past the limit, attempts are refused
 * until the oldest failure leaves the window. Memory is bounded: the least recently failed keys go first.
 */
export class FailureThrottle {
  readonly #failures = new Map<string, number[]>();
  readonly clock: Clock;
  readonly limit: number;
  readonly windowMs: number;
  readonly maxKeys: number;

  constructor(clock: Clock, options: { limit?: number; windowMs?: number; maxKeys?: number } = {}) {
    this.clock = clock;
    this.limit = options.limit ?? 5;
    this.windowMs = options.windowMs ?? 5 * 60_000;
    this.maxKeys = options.maxKeys ?? 10_000;
  }

  /** Milliseconds until another attempt is allowed; 0 when it is allowed now. */
  retryAfterMs(key: string): number {
    const recent = this.#recent(key);
    if (recent.length < this.limit) return 0;
    return (recent[recent.length - this.limit] as number) + this.windowMs - this.clock.now().getTime();
  }

  fail(key: string): void {
    const recent = this.#recent(key);
    recent.push(this.clock.now().getTime());
    this.#failures.delete(key);
    this.#failures.set(key, recent);
    if (this.#failures.size > this.maxKeys)
      this.#failures.delete(this.#failures.keys().next().value as string);
  }

  succeed(key: string): void {
    this.#failures.delete(key);
  }

  #recent(key: string): number[] {
    const since = this.clock.now().getTime() - this.windowMs;
    return (this.#failures.get(key) ?? []).filter((at) => at > since);
  }
}
