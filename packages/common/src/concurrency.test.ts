import { describe, expect, it } from 'vitest';
import { mapConcurrently } from './concurrency.ts';

describe('mapConcurrently', () => {
  it('keeps the input order and never runs more than the limit at once', async () => {
    let running = 0;
    let peak = 0;
    const results = await mapConcurrently([5, 1, 4, 2, 3, 0], 2, async (n) => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, n));
      running -= 1;
      return n * 10;
    });
    expect(results).toEqual([50, 10, 40, 20, 30, 0]);
    expect(peak).toBe(2);
  });

  it('answers an empty list without calling the work', async () => {
    expect(await mapConcurrently([], 4, () => Promise.reject(new Error('called')))).toEqual([]);
  });
});
