import { describe, expect, it } from 'vitest';
import { coalesceValues } from './release-detail.ts';

describe('coalesceValues, as Helm merges user values over chart defaults', () => {
  it('merges maps key by key and replaces everything else, lists included', () => {
    expect(
      coalesceValues(
        { image: { repository: 'r', tag: '1' }, ports: [80, 443], replicas: 2 },
        { image: { tag: '2' }, ports: [8080], extra: true },
      ),
    ).toEqual({ image: { repository: 'r', tag: '2' }, ports: [8080], replicas: 2, extra: true });
  });

  it('removes a default the user set to null, at any depth, and leaves the inputs as they were', () => {
    const defaults = { a: { b: 1, c: 2 }, d: 3 };
    const supplied = { a: { c: null }, d: null };
    expect(coalesceValues(defaults, supplied)).toEqual({ a: { b: 1 } });
    expect(defaults).toEqual({ a: { b: 1, c: 2 }, d: 3 });
  });

  it('lets a map replace a scalar default and a scalar replace a map', () => {
    expect(coalesceValues({ a: 1, b: { c: 1 } }, { a: { x: 1 }, b: 'flat' })).toEqual({
      a: { x: 1 },
      b: 'flat',
    });
  });
});
