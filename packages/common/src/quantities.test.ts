import { describe, expect, it } from 'vitest';
import { parseQuantity } from './quantities.ts';

describe('parseQuantity', () => {
  it.each([
    ['250m', 0.25],
    ['2', 2],
    ['1999945n', 0.001999945],
    ['1500u', 0.0015],
    ['1.5Gi', 1.5 * 1024 ** 3],
    ['24Mi', 24 * 1024 ** 2],
    ['100k', 100_000],
    ['1e3', 1000],
    ['.5', 0.5],
    ['-2Ki', -2048],
  ])('reads %s', (text, value) => {
    expect(parseQuantity(text)).toBeCloseTo(value, 12);
  });

  it.each(['', 'lots', '1GB', '1 Mi', 'Mi', '1.2.3'])('rejects %j', (text) => {
    expect(parseQuantity(text)).toBeUndefined();
  });
});
