import { describe, expect, it } from 'vitest';
import type { Topology } from './model.ts';
import { withTrafficEdges } from './traffic-edges.ts';

const graph: Topology = {
  nodes: [
    {
      id: 'deployment/shop/web',
      kind: 'Deployment',
      namespace: 'shop',
      name: 'web',
      status: 'healthy',
      data: {},
    },
    { id: 'service/shop/db', kind: 'Service', namespace: 'shop', name: 'db', status: 'healthy', data: {} },
  ],
  edges: [],
  warnings: [],
};
const counts = {
  flows: 3,
  connections: 1,
  requests: 2,
  errors: 1,
  requestRate: 0.1,
  errorRate: 0.5,
  verdicts: { forwarded: 3 },
};

describe('the traffic view', () => {
  it('joins a traffic edge per pair with its counts, and adds the ends the graph lacks as nodes', () => {
    const withTraffic = withTrafficEdges(graph, [
      { source: graph.nodes[0] as never, destination: graph.nodes[1] as never, ...counts },
      {
        source: graph.nodes[0] as never,
        destination: { id: 'hidden', kind: 'Hidden', name: 'hidden' },
        ...counts,
      },
    ]);
    expect(withTraffic.edges).toEqual([
      {
        id: 'deployment/shop/web-traffic-service/shop/db',
        source: 'deployment/shop/web',
        target: 'service/shop/db',
        type: 'traffic',
        data: counts,
      },
      {
        id: 'deployment/shop/web-traffic-hidden',
        source: 'deployment/shop/web',
        target: 'hidden',
        type: 'traffic',
        data: counts,
      },
    ]);
    expect(withTraffic.nodes.map((n) => n.id)).toEqual(['deployment/shop/web', 'service/shop/db', 'hidden']);
    expect(graph.edges).toHaveLength(0);
  });
});
