import { describe, expect, it } from 'vitest';
import { rightAfter } from './moments.ts';

const t = (seconds: number) => new Date(Date.UTC(2026, 10, 29, 3, 0, seconds)).toISOString();

describe('rightAfter', () => {
  it('is a second after the change, or now (undefined) when that second has not passed', () => {
    expect(rightAfter(t(10), Date.parse(t(30)))).toBe(t(11));
    expect(rightAfter(t(10), Date.parse(t(10.5)))).toBeUndefined();
  });
});
