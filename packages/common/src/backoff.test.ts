import { describe, expect, it } from 'vitest';
import { backoffDelay, probeSchedule, retrySchedule } from './backoff.ts';

describe('the retry back-off', () => {
  it('grows from about 1 s to at most 30 s, with ±20 % jitter', () => {
    expect(backoffDelay(0, () => 0)).toBe(retrySchedule.firstMs);
    expect(backoffDelay(1, () => 0.5)).toBe(2000);
    expect(backoffDelay(3, () => 1)).toBe(9600);
    expect(backoffDelay(3, () => 0)).toBe(6400);
    expect(backoffDelay(20, () => 1)).toBe(retrySchedule.maxMs);
    expect(backoffDelay(10_000, () => 0.5)).toBe(retrySchedule.maxMs);
  });

  it('probes a lost server from about 0.5 s up to 3 s, so its return is seen within 3 s', () => {
    expect(backoffDelay(0, () => 0.5, probeSchedule)).toBe(500);
    expect(backoffDelay(2, () => 0.5, probeSchedule)).toBe(2000);
    expect(backoffDelay(2, () => 1, probeSchedule)).toBe(2400);
    expect(backoffDelay(3, () => 1, probeSchedule)).toBe(3000);
    expect(backoffDelay(10_000, () => 1, probeSchedule)).toBe(3000);
  });
});
