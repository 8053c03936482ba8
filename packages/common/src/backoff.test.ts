import { describe, expect, it } from 'vitest';
import { backoffDelay, maxBackoffMs, minBackoffMs } from './backoff.ts';

describe('the retry back-off', () => {
  it('grows from about 1 s to at most 30 s, with ±20 % jitter', () => {
    expect(backoffDelay(0, () => 0)).toBe(minBackoffMs);
    expect(backoffDelay(1, () => 0.5)).toBe(2000);
    expect(backoffDelay(3, () => 1)).toBe(9600);
    expect(backoffDelay(3, () => 0)).toBe(6400);
    expect(backoffDelay(20, () => 1)).toBe(maxBackoffMs);
    expect(backoffDelay(10_000, () => 0.5)).toBe(maxBackoffMs);
  });
});
