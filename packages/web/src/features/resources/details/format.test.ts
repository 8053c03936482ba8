import { describe, expect, it } from 'vitest';
import { conditionTrouble, duration, selectorTerms } from './format.ts';

describe('the details formatting', () => {
  it('writes selectors as kubectl describe does, a Service map and a LabelSelector alike', () => {
    expect(selectorTerms({ app: 'web' })).toEqual(['app=web']);
    expect(
      selectorTerms({
        matchLabels: { app: 'web' },
        matchExpressions: [
          { key: 'tier', operator: 'In', values: ['a', 'b'] },
          { key: 'canary', operator: 'DoesNotExist' },
          { key: 'zone', operator: 'Exists' },
        ],
      }),
    ).toEqual(['app=web', 'tier in (a,b)', '!canary', 'zone']);
    expect(selectorTerms(undefined)).toEqual([]);
  });

  it('reads a condition as trouble by its meaning, not by True alone', () => {
    expect(conditionTrouble({ type: 'Available', status: 'True' })).toBe(false);
    expect(conditionTrouble({ type: 'Available', status: 'False' })).toBe(true);
    expect(conditionTrouble({ type: 'ReplicaFailure', status: 'True' })).toBe(true);
    expect(conditionTrouble({ type: 'ScalingLimited', status: 'False' })).toBe(false);
    expect(conditionTrouble({ type: 'Ready', status: 'Unknown' })).toBe(true);
  });

  it('measures a duration to its end, or to now while it runs', () => {
    const now = Date.parse('2026-01-01T01:00:00Z');
    expect(duration('2026-01-01T00:00:00Z', '2026-01-01T00:00:42Z')).toBe('42s');
    expect(duration('2026-01-01T00:00:00Z', undefined, now)).toBe('60m');
    expect(duration(undefined)).toBeUndefined();
  });
});
