import { describe, expect, it } from 'vitest';
import { applied, forwardOf, operations } from './patch.ts';

describe('operations and applied', () => {
  const before = {
    metadata: { name: 'web', labels: { app: 'web', tier: 'front' }, resourceVersion: '1' },
    spec: { replicas: 2, containers: [{ name: 'app', image: 'web:1', ports: [80] }] },
    status: { conditions: [{ type: 'Ready', status: 'True' }] },
  };
  const after = {
    metadata: { name: 'web', labels: { app: 'web' }, annotations: { note: 'x' }, resourceVersion: '2' },
    spec: { replicas: 3, containers: [{ name: 'app', image: 'web:2', ports: [80, 443] }] },
    status: { conditions: [] },
  };

  it('turns one state into the other and back, leaving both as they were', () => {
    const frozen = structuredClone({ before, after });
    expect(applied(before, operations(before, after))).toEqual(after);
    expect(applied(after, operations(after, before))).toEqual(before);
    expect({ before, after }).toEqual(frozen);
  });

  it('keeps only what changed, sharing the untouched parts', () => {
    const ops = operations(after, before);
    expect(ops.map((op) => op.path.join('.'))).toEqual([
      'metadata.annotations',
      'metadata.labels.tier',
      'metadata.resourceVersion',
      'spec.replicas',
      'spec.containers.0.image',
      'spec.containers.0.ports',
      'status.conditions',
    ]);
    const back = applied(after, ops);
    expect(back.metadata).not.toBe(after.metadata);
    expect(operations(before, structuredClone(before))).toEqual([]);
  });
});

describe('forwardOf', () => {
  /** A small random JSON value: objects, arrays of varying length, scalars, so every kind of operation occurs. */
  function random(seed: number, depth = 0): unknown {
    const pick = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const shape = depth > 2 ? pick(3) : pick(5);
    if (shape === 0) return pick(4);
    if (shape === 1) return ['a', 'b', null][pick(3)];
    if (shape === 2) return pick(2) === 0;
    if (shape === 3) return Array.from({ length: pick(3) }, (_, i) => random(seed + i, depth + 1));
    return Object.fromEntries(
      ['x', 'y', 'z'].filter(() => pick(3) > 0).map((key, i) => [key, random(seed + i * 7, depth + 1)]),
    );
  }

  it('turns the earlier state into the later one, for 500 random pairs', () => {
    for (let i = 0; i < 500; i += 1) {
      const earlier = { spec: random(i), status: random(i + 1000) };
      const later = { spec: random(i + 1), status: random(i + 2000) };
      const back = operations(later, earlier);
      expect(applied(later, back)).toEqual(earlier);
      expect(applied(earlier, forwardOf(back, later))).toEqual(later);
    }
  });
});
