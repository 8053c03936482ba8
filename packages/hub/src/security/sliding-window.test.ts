import { AppError } from '@binnacle/common/server';
import { describe, expect, it } from 'vitest';
import { ManualClock } from './clock.ts';
import { SlidingWindowLimit } from './sliding-window.ts';

describe('SlidingWindowLimit', () => {
  it('takes up to the limit per key, then refuses with 429 and the seconds until the oldest leaves', () => {
    const clock = new ManualClock(new Date('2026-11-26T00:00:00Z'));
    const limit = new SlidingWindowLimit(clock, { limit: 3, windowMs: 60_000 });
    limit.take('ada', 'fan-outs');
    clock.advance(10_000);
    limit.take('ada', 'fan-outs');
    limit.take('ada', 'fan-outs');
    limit.take('bob', 'fan-outs');
    let refused: unknown;
    try {
      limit.take('ada', 'fan-outs');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      code: 'rate_limited',
      status: 429,
      headers: { 'Retry-After': '50' },
      message: 'fan-outs: at most 3 per 60 s; retry in 50 s',
    });
    clock.advance(50_001);
    expect(() => limit.take('ada', 'fan-outs')).not.toThrow();
    expect(limit.retryAfterMs('ada')).toBe(10_000 - 1);
  });

  it('forgets a key, and keeps at most maxKeys (the least recently counted go first)', () => {
    const clock = new ManualClock(new Date('2026-11-26T00:00:00Z'));
    const limit = new SlidingWindowLimit(clock, { limit: 1, windowMs: 60_000, maxKeys: 2 });
    limit.record('a');
    limit.record('b');
    limit.record('c');
    expect(limit.retryAfterMs('a')).toBe(0);
    expect(limit.retryAfterMs('c')).toBeGreaterThan(0);
    limit.forget('c');
    expect(limit.retryAfterMs('c')).toBe(0);
  });
});
