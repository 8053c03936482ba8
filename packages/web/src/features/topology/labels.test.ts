import { describe, expect, it } from 'vitest';
import type { TopologyNode } from './graph.ts';
import { compactLabel, detailAt, kindLabel } from './labels.ts';

const node = (kind: string, name: string, data: Record<string, unknown> = {}): TopologyNode =>
  ({ id: `${kind}/${name}`, kind, name, namespace: 'shop', status: 'healthy', data }) as TopologyNode;

describe('labels as the zoom shortens them', () => {
  it('keeps every detail close up, one line further out, the count first furthest out', () => {
    expect([1, 0.6, 0.59, 0.3, 0.29, 0.05].map(detailAt)).toEqual([
      'full',
      'full',
      'short',
      'short',
      'counts',
      'counts',
    ]);
  });

  it("gives a pod group's name without the word pods, and its count apart, so an ellipsis cuts only the name", () => {
    const group = node('PodGroup', 'checkout pods', { count: 40 });
    expect(compactLabel(group, 'short')).toEqual({ name: 'checkout', count: '40' });
    expect(compactLabel(group, 'counts')).toEqual({ name: 'checkout', count: '40' });
  });

  it("gives a namespace's objects of one kind as the kind and their count", () => {
    const kinds = node('KindGroup', 'Deployment × 140', { of: 'Deployment', count: 140 });
    expect(compactLabel(kinds, 'short')).toEqual({ name: 'Deployment', count: '140' });
  });

  it("counts a namespace's pods in the overview, and names any other object", () => {
    expect(compactLabel(node('Namespace', 'shop', { objects: 9, pods: 1 }), 'short')).toEqual({
      name: 'shop',
      count: '1 pod',
    });
    expect(compactLabel(node('Namespace', 'shop', { objects: 9, pods: 12 }), 'counts')).toEqual({
      name: 'shop',
      count: '12',
    });
    expect(compactLabel(node('Deployment', 'checkout'), 'counts')).toEqual({ name: 'checkout' });
  });

  it('says whose a kind is when its name is shared, and only then', () => {
    expect(kindLabel({ kind: 'Service', group: 'serving.knative.dev' })).toBe('Service · Knative Serving');
    expect(kindLabel({ kind: 'Backup', group: 'velero.io' })).toBe('Backup · Velero');
    expect(kindLabel({ kind: 'Service' })).toBe('Service');
    expect(kindLabel({ kind: 'Certificate', group: 'cert-manager.io' })).toBe('Certificate');
  });
});
