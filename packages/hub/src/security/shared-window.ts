import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Clock } from './clock.ts';
import { type RateLimit, rateLimited } from './sliding-window.ts';

/**
 * One sorted set per key: members are events scored by their time. Drops what left the window; when full,
 * answers how long until the oldest counted event leaves it; else counts this one. Atomic in Redis, so two
 * replicas counting at once never both take the last place.
 */
const takeScript = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], count - limit, count - limit, 'WITHSCORES')
  return math.max(1, tonumber(oldest[2]) + window - now)
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window)
return 0
`;

/** `SlidingWindowLimit` shared by every replica of the hub (the fan-out bucket must not grow with replicas). */
export class SharedWindowLimit implements RateLimit {
  readonly limit: number;
  readonly windowMs: number;
  readonly #redis: Redis;
  readonly #clock: Clock;
  readonly #prefix: string;

  constructor(redis: Redis, clock: Clock, options: { name: string; limit: number; windowMs: number }) {
    this.#redis = redis;
    this.#clock = clock;
    this.#prefix = `bnc:limit:${options.name}:`;
    this.limit = options.limit;
    this.windowMs = options.windowMs;
  }

  async take(key: string, what: string): Promise<void> {
    const now = this.#clock.now().getTime();
    const waitMs = Number(
      await this.#redis.eval(
        takeScript,
        1,
        this.#prefix + key,
        now,
        this.windowMs,
        this.limit,
        `${now}:${randomUUID()}`,
      ),
    );
    if (waitMs > 0) throw rateLimited(what, this, waitMs);
  }

  async forget(key: string): Promise<void> {
    await this.#redis.del(this.#prefix + key);
  }
}
