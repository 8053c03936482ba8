import { describe, expect, it } from 'vitest';
import { shownGraph } from '../topology/graph.ts';
import { trafficLabel, trafficState, trafficWidth } from '../topology/traffic-edge.ts';
import { applyDelta, type FlowPair, trafficTopology } from './flows.ts';

const end = (kind: string, name: string, namespace?: string) => ({
  id: namespace ? `${kind.toLowerCase()}/${namespace}/${name}` : `external/${name}`,
  kind,
  name,
  ...(namespace ? { namespace } : {}),
});

const pair = (
  source: FlowPair['source'],
  destination: FlowPair['destination'],
  counts: Partial<FlowPair>,
) => ({
  id: `${source.id}→${destination.id}`,
  source,
  destination,
  ports: [{ protocol: 'TCP', port: 8080, flows: 1 }],
  flows: 1,
  connections: 0,
  requests: 0,
  errors: 0,
  requestRate: 0,
  errorRate: 0,
  verdicts: { forwarded: 1 },
  httpStatus: {},
  lastSeen: '2026-11-26T08:00:00Z',
  ...counts,
});

const storefront = end('Deployment', 'storefront', 'shop');
const checkout = end('Deployment', 'checkout', 'shop');
const postgres = end('StatefulSet', 'postgres', 'data');
const web = pair(storefront, checkout, {
  flows: 7,
  requests: 3,
  errors: 1,
  requestRate: 0.01,
  errorRate: 1 / 3,
});
const db = pair(checkout, postgres, { flows: 2, connections: 1 });
const denied = pair(storefront, postgres, { flows: 1, verdicts: { dropped: 1 } });

describe('the traffic map', () => {
  it('draws each end once and each pair as a traffic edge, ungrouped and left to right', () => {
    const topology = trafficTopology([web, db, denied]);
    expect(topology.nodes.map((n) => n.id).sort()).toEqual([checkout.id, postgres.id, storefront.id].sort());
    expect(topology.edges.map((e) => [e.source, e.target, e.type])).toEqual([
      [storefront.id, checkout.id, 'traffic'],
      [checkout.id, postgres.id, 'traffic'],
      [storefront.id, postgres.id, 'traffic'],
    ]);
    const graph = shownGraph(topology, { hiddenKinds: [], health: [] }, 'none');
    expect(graph.edges).toHaveLength(3);
  });

  it('colours dropped flows over 5xx answers, and labels the rate before what went wrong', () => {
    expect([web, db, denied].map(trafficState)).toEqual(['errors', 'ok', 'dropped']);
    expect(trafficLabel(web)).toBe('0.01 req/s · 33% 5xx');
    expect(trafficLabel(db)).toBe('2 flows');
    expect(trafficLabel(denied)).toBe('1 flow · 1 dropped');
    expect(trafficLabel({ ...db, bytes: 2_500_000 })).toBe('2.5 MB');
  });

  it('draws the busiest pair widest, every pair at least 1.5 px', () => {
    expect(trafficWidth(web, 7)).toBeCloseTo(7);
    expect(trafficWidth(denied, 7)).toBeGreaterThan(1.5);
    expect(trafficWidth(denied, 7)).toBeLessThan(trafficWidth(db, 7));
  });
});

describe('the live pairs', () => {
  it('replaces changed pairs in place, adds new ones and drops removed ones', () => {
    const busier = { ...web, flows: 9 };
    expect(applyDelta([web, db], { changed: [busier, denied], removed: [db.id] })).toEqual([busier, denied]);
  });
});
