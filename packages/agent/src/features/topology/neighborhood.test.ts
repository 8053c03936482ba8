import { describe, expect, it } from 'vitest';
import type { EdgeType, Topology } from '../../scope/topology/model.ts';
import { neighborhood } from './neighborhood.ts';

const node = (id: string) => ({
  id,
  kind: id.split('/')[0] ?? '',
  name: id,
  status: 'healthy' as const,
  data: {},
});
const edge = (source: string, type: EdgeType, target: string) => ({
  id: `${source}-${type}-${target}`,
  source,
  target,
  type,
});

// ingress → service → deployment → two pods; the deployment reads a configmap; an unrelated job.
const graph: Topology = {
  nodes: [
    'ingress/a/web',
    'service/a/web',
    'deployment/a/web',
    'pod/a/web-1',
    'pod/a/web-2',
    'configmap/a/cfg',
    'job/a/other',
  ].map(node),
  edges: [
    edge('ingress/a/web', 'routes-to', 'service/a/web'),
    edge('service/a/web', 'exposes', 'deployment/a/web'),
    edge('deployment/a/web', 'manages', 'pod/a/web-1'),
    edge('deployment/a/web', 'manages', 'pod/a/web-2'),
    edge('configmap/a/cfg', 'configures', 'deployment/a/web'),
  ],
  warnings: [],
};

describe('neighborhood', () => {
  it('walks edges both ways, nearest first, up to the hops asked', () => {
    const one = neighborhood(graph, 'service/a/web', { hops: 1, maxNodes: 25 });
    expect(one?.nodes.map((n) => [n.id, n.distance])).toEqual([
      ['service/a/web', 0],
      ['deployment/a/web', 1],
      ['ingress/a/web', 1],
    ]);
    expect(one?.edges.map((e) => e.id)).toEqual([
      'ingress/a/web-routes-to-service/a/web',
      'service/a/web-exposes-deployment/a/web',
    ]);
    const two = neighborhood(graph, 'service/a/web', { hops: 2, maxNodes: 25 });
    expect(two?.nodes.map((n) => n.id)).toEqual([
      'service/a/web',
      'deployment/a/web',
      'ingress/a/web',
      'configmap/a/cfg',
      'pod/a/web-1',
      'pod/a/web-2',
    ]);
    expect(two?.nodes.map((n) => n.id)).not.toContain('job/a/other');
  });

  it('keeps at most maxNodes, saying how many it left out, and only the edges between those kept', () => {
    const cut = neighborhood(graph, 'deployment/a/web', { hops: 1, maxNodes: 2 });
    expect(cut?.nodes.map((n) => n.id)).toEqual(['deployment/a/web', 'configmap/a/cfg']);
    expect(cut?.omitted).toBe(3);
    expect(cut?.edges.map((e) => e.type)).toEqual(['configures']);
  });

  it('answers undefined for an object the graph does not hold', () => {
    expect(neighborhood(graph, 'pod/a/gone', { hops: 1, maxNodes: 25 })).toBeUndefined();
  });
});
