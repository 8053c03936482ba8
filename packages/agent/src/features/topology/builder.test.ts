import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../kube/objects.ts';
import { buildTopology, defaultTopologyOptions } from './builder.ts';

const pods = (app: string, count: number): KubeObject[] =>
  Array.from({ length: count }, (_, i) => ({
    kind: 'Pod',
    metadata: {
      namespace: 'jobs',
      name: `${app}-${i}`,
      uid: `${app}-${i}`,
      labels: { app, index: String(i) },
    },
    spec: { containers: [{ name: 'c', image: 'busybox' }] },
    status: { phase: 'Running' },
  }));

describe('pod groups', () => {
  const input = { Pod: [...pods('small', 6), ...pods('big', 501)] };

  it('groups pods without an owner by app, with only the labels they all share', () => {
    const t = buildTopology(input);
    expect(t.nodes.map((n) => [n.id, n.data.count, n.data.expandable])).toEqual([
      ['podgroup/jobs/app-small', 6, true],
      ['podgroup/jobs/app-big', 501, false],
    ]);
  });

  it('expands a group on request, but keeps one of more than 500 pods whole', () => {
    const t = buildTopology(input, {
      ...defaultTopologyOptions,
      expand: ['podgroup/jobs/app-small', 'podgroup/jobs/app-big'],
    });
    expect(t.nodes.filter((n) => n.kind === 'Pod')).toHaveLength(6);
    expect(t.nodes.filter((n) => n.kind === 'PodGroup').map((n) => n.id)).toEqual(['podgroup/jobs/app-big']);
  });
});
