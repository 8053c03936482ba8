import { describe, expect, it } from 'vitest';
import { newestFirst, placeChange } from './order.ts';

const at = (seq: number, second: number, millis = 0) => ({
  seq,
  timestamp: new Date(Date.UTC(2026, 10, 28, 12, 0, second, millis)).toISOString(),
});

describe('the timeline order in the page', () => {
  const page = [at(9, 40), at(7, 30, 500), at(8, 30, 500), at(3, 10)].sort(newestFirst);

  it('is newest first by timestamp, one instant newest recorded first', () => {
    expect(page.map((e) => e.seq)).toEqual([9, 8, 7, 3]);
  });

  it('puts a streamed change where its time says, not on top: an Event that arrived late', () => {
    expect(placeChange(page, at(10, 20), 10).map((e) => e.seq)).toEqual([9, 8, 7, 10, 3]);
    expect(placeChange(page, at(11, 50), 10).map((e) => e.seq)).toEqual([11, 9, 8, 7, 3]);
    expect(placeChange(page, at(12, 30, 500), 10).map((e) => e.seq)).toEqual([9, 12, 8, 7, 3]);
    expect(placeChange(page, at(13, 1), 10).map((e) => e.seq)).toEqual([9, 8, 7, 3, 13]);
  });

  it('keeps each entry once and only the newest it may keep', () => {
    expect(placeChange(page, at(8, 30, 500), 10)).toBe(page);
    expect(placeChange(page, at(13, 1), 4).map((e) => e.seq)).toEqual([9, 8, 7, 3]);
    expect(placeChange(page, at(14, 45), 2).map((e) => e.seq)).toEqual([14, 9]);
  });
});
