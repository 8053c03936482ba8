import { describe, expect, it } from 'vitest';
import { conditionTrouble, duration, podReady, podStatus, selectorTerms } from './format.ts';

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

  it('words a pod as kubectl get pods does: a waiting reason before the phase', () => {
    const pod = (status: Record<string, unknown>) => ({ spec: { containers: [{}, {}] }, status });
    const crashing = pod({
      phase: 'Running',
      containerStatuses: [
        { ready: true, restartCount: 0, state: { running: {} } },
        { ready: false, restartCount: 4, state: { waiting: { reason: 'CrashLoopBackOff' } } },
      ],
    });
    expect(podStatus(crashing)).toBe('CrashLoopBackOff');
    expect(podReady(crashing)).toBe('1/2');
    expect(podStatus(pod({ phase: 'Failed', reason: 'Evicted' }))).toBe('Evicted');
    expect(
      podStatus(
        pod({
          phase: 'Pending',
          containerStatuses: [{ state: { waiting: { reason: 'ContainerCreating' } } }],
        }),
      ),
    ).toBe('Pending');
  });

  it('measures a duration to its end, or to now while it runs', () => {
    const now = Date.parse('2026-01-01T01:00:00Z');
    expect(duration('2026-01-01T00:00:00Z', '2026-01-01T00:00:42Z')).toBe('42s');
    expect(duration('2026-01-01T00:00:00Z', undefined, now)).toBe('60m');
    expect(duration(undefined)).toBeUndefined();
  });
});
