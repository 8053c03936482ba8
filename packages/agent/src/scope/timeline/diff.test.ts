import { describe, expect, it } from 'vitest';
import { computeDiff } from './diff.ts';

const deployment = (replicas: number, image: string, ready = replicas) => ({
  kind: 'Deployment',
  metadata: { name: 'web', resourceVersion: String(Math.random()) },
  spec: { replicas, template: { spec: { containers: [{ name: 'web', image }] } } },
  status: { readyReplicas: ready, availableReplicas: ready, updatedReplicas: ready },
});

describe('computeDiff', () => {
  it('reports replicas and image changes of a Deployment', () => {
    const diff = computeDiff(deployment(3, 'nginx:1.27'), deployment(5, 'nginx:1.28', 3));
    expect(diff?.fields).toEqual([
      { path: 'spec.replicas', old: 3, new: 5 },
      { path: 'spec.template.spec.containers[web].image', old: 'nginx:1.27', new: 'nginx:1.28' },
    ]);
    expect(diff?.summary).toBe('replicas 3 → 5; containers[web].image nginx:1.27 → nginx:1.28');
  });

  it('ignores a change of resourceVersion or heartbeat only', () => {
    const node = (beat: string) => ({
      kind: 'Node',
      metadata: { name: 'n', resourceVersion: beat },
      status: { conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: beat }] },
    });
    expect(computeDiff(node('1'), node('2'))).toBeUndefined();
  });

  it('reports pod phase, restarts and container state', () => {
    const pod = (phase: string, restarts: number, state: object) => ({
      kind: 'Pod',
      metadata: { name: 'p' },
      status: { phase, containerStatuses: [{ name: 'app', restartCount: restarts, state }] },
    });
    const diff = computeDiff(
      pod('Running', 0, { running: {} }),
      pod('Running', 1, { waiting: { reason: 'CrashLoopBackOff' } }),
    );
    expect(diff?.fields).toEqual([
      { path: 'status.containerStatuses[app].restartCount', old: 0, new: 1 },
      { path: 'status.containerStatuses[app].state', old: 'running', new: 'waiting:CrashLoopBackOff' },
    ]);
  });

  it('names Secret keys added, removed and changed, never their values', () => {
    const secret = (data: Record<string, string>) => ({ kind: 'Secret', metadata: { name: 's' }, data });
    const diff = computeDiff(
      secret({ A: 'c2VjcmV0MQ==', B: 'Ym9i' }),
      secret({ A: 'c2VjcmV0Mg==', C: 'Y2Fyb2w=' }),
    );
    expect(diff?.fields).toEqual([
      { path: 'data.A', old: '(value)', new: '(changed)' },
      { path: 'data.B', old: '(removed)' },
      { path: 'data.C', new: '(added)' },
    ]);
    expect(diff?.summary).toBe('data.A changed; data.B removed; data.C added');
    expect(JSON.stringify(diff)).not.toMatch(/c2VjcmV0|Ym9i|Y2Fyb2w/);
  });

  it('falls back to top-level spec fields and conditions for other kinds', () => {
    const app = (revision: string, ready: string) => ({
      kind: 'Application',
      metadata: { name: 'a' },
      spec: { source: { targetRevision: revision } },
      status: { conditions: [{ type: 'Ready', status: ready }] },
    });
    expect(computeDiff(app('v1', 'True'), app('v2', 'False'))?.fields.map((f) => f.path)).toEqual([
      'spec.source',
      'status.conditions[Ready]',
    ]);
  });

  it('truncates large values', () => {
    const cm = (v: string) => ({ kind: 'Widget', metadata: { name: 'w' }, spec: { blob: v } });
    const diff = computeDiff(cm('a'), cm('x'.repeat(1000)));
    expect(String(diff?.fields[0]?.new)).toHaveLength(301);
  });
});
