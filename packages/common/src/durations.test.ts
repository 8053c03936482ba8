import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from './durations.ts';

describe('parseDuration', () => {
  it.each([
    ['168h', 168 * 3_600_000],
    ['20m', 1_200_000],
    ['90s', 90_000],
    ['1h30m', 5_400_000],
    ['1h0m10s', 3_610_000],
    ['1.5h', 5_400_000],
    ['250ms', 250],
    ['2m30s', 150_000],
  ])('reads %s', (text, ms) => {
    expect(parseDuration(text, 'maxInactive')).toBe(ms);
  });

  it('rejects days and names the setting', () => {
    expect(() => parseDuration('7d', 'auth.sessionLifetime')).toThrow(
      'auth.sessionLifetime: "7d" is not a duration like 168h, 20m, 90s or 1h30m (days are not accepted: write 168h)',
    );
  });

  it.each(['', '10', 'h', '1x', '1m1h', '-5m', '5 m'])('rejects %j', (text) => {
    expect(() => parseDuration(text, 'setting')).toThrow(/^setting: /);
  });
});

describe('formatDuration', () => {
  it.each([
    [5_400_000, '1h30m'],
    [45_000, '45s'],
    [0, '0s'],
    [250, '250ms'],
  ])('writes %d as %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
