import { describe, expect, it } from 'vitest';
import { requestedMoment } from './query.ts';

describe('requestedMoment', () => {
  const now = Date.parse('2026-11-29T12:00:00Z');

  it('reads an RFC 3339 time or a duration back from now; absent is undefined', () => {
    expect(requestedMoment('2026-11-29T03:12:05Z', 'at', now)).toBe(Date.parse('2026-11-29T03:12:05Z'));
    expect(requestedMoment('90m', 'at', now)).toBe(now - 90 * 60_000);
    expect(requestedMoment(undefined, 'at', now)).toBeUndefined();
  });

  it('answers 400 naming the parameter for text that is neither', () => {
    expect(() => requestedMoment('yesterday', 'from', now)).toThrow(/query parameter "from"/);
  });
});
