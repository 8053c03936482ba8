import { describe, expect, it } from 'vitest';
import { costWindow, maxTrendPoints, trendStepMs } from './window.ts';

describe('cost windows', () => {
  it('defaults to 24h and takes hours form from 1h to 720h', () => {
    expect(costWindow(undefined)).toEqual({ text: '24h', ms: 86_400_000, hours: 24, promql: '86400s' });
    expect(costWindow('720h').hours).toBe(720);
  });

  it('refuses windows outside the bounds or not in hours form, naming the setting', () => {
    for (const bad of ['30m', '721h', '7d', 'soon'])
      expect(() => costWindow(bad)).toThrow(
        expect.objectContaining({ message: expect.stringMatching(/^window/) }),
      );
  });

  it('steps trends in whole minutes, keeping every window within the point budget', () => {
    expect(trendStepMs(3_600_000)).toBe(60_000);
    for (const hours of [1, 6, 24, 168, 720]) {
      const ms = hours * 3_600_000;
      expect(Math.floor(ms / trendStepMs(ms)) + 1).toBeLessThanOrEqual(maxTrendPoints);
      expect(trendStepMs(ms) % 60_000).toBe(0);
    }
  });
});
