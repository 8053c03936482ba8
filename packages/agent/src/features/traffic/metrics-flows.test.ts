import { describe, expect, it } from 'vitest';
import type { VectorSample } from '../../scope/metricsdb/client.ts';
import { aggregateMetricFlows } from './metrics-aggregate.ts';
import { metricFlows, metricQueries, type Namer } from './metrics-flows.ts';
import { endpoint } from './resolve.ts';
import { visibleFlows } from './visibility.ts';

/** Names workloads by the kind given, else Deployment; the one known pod IP is the `client` pod. */
const namer: Namer = {
  workload: (namespace, name, kind) =>
    kind === 'Node'
      ? endpoint('Node', name)
      : endpoint((kind as 'Deployment') ?? 'Deployment', name, namespace),
  address: (address) =>
    address === '10.0.0.5'
      ? endpoint('Pod', 'client', 'shop', address)
      : { id: `external/${address}`, kind: 'External', name: address },
};
const sample = (metric: Record<string, string>, value: number): VectorSample => ({
  metric,
  value: [1_700_000_000, String(value)],
});
const now = Date.UTC(2026, 10, 26);

describe('Istio series → pairs', () => {
  const pair = {
    source_workload: 'web',
    source_workload_namespace: 'shop',
    destination_workload: 'orders',
    destination_workload_namespace: 'shop',
  };

  it('prefers what the destination reported, the source only for pairs the destination did not', () => {
    const { requests } = metricQueries('istio', 300);
    expect(requests).toContain('increase({__name__=~"istio_requests_total",reporter="destination"}[300s])');
    expect(requests).toContain(
      ' or on (source_workload, source_workload_namespace, destination_workload, destination_workload_namespace) ',
    );
  });

  it('adds requests per response code, 5xx as errors, and TCP bytes; `unknown` is outside the mesh', () => {
    const flows = metricFlows('istio', namer, {
      requests: [
        sample({ ...pair, response_code: '200' }, 570),
        sample({ ...pair, response_code: '503' }, 30),
        sample(
          { ...pair, source_workload: 'unknown', source_workload_namespace: 'unknown', response_code: '200' },
          3,
        ),
      ],
      bytes: [sample(pair, 1_500_000.4)],
    });
    const pairs = aggregateMetricFlows(flows, 300_000, now);
    expect(pairs).toEqual([
      {
        id: 'deployment/shop/web→deployment/shop/orders',
        source: endpoint('Deployment', 'web', 'shop'),
        destination: endpoint('Deployment', 'orders', 'shop'),
        ports: [],
        flows: 3,
        connections: 0,
        requests: 600,
        errors: 30,
        requestRate: 2,
        errorRate: 0.05,
        bytes: 1_500_000,
        verdicts: {},
        httpStatus: { '200': 570, '503': 30 },
        lastSeen: new Date(now).toISOString(),
      },
      expect.objectContaining({ id: 'external/unknown→deployment/shop/orders', requests: 3, bytes: 0 }),
    ]);
  });
});

describe('Caretta series → pairs', () => {
  it('gives each link its bytes with the server port; nodes and the outside keep their kinds', () => {
    const link = {
      client_kind: 'Deployment',
      client_name: 'web',
      client_namespace: 'shop',
      server_kind: 'StatefulSet',
      server_name: 'db',
      server_namespace: 'shop',
      server_port: '5432',
    };
    expect(metricQueries('caretta', 60).bytes).toBe(
      'max without (role) (sum by (client_kind, client_name, client_namespace, server_kind, server_name, server_namespace, server_port, role) (increase(caretta_links_observed[60s])))',
    );
    const flows = metricFlows('caretta', namer, {
      requests: [],
      bytes: [
        sample(link, 6000),
        sample({ ...link, client_kind: 'node', client_name: 'n1', client_namespace: '' }, 10),
        sample({ ...link, client_kind: 'external', client_name: '203.0.113.9', client_namespace: '' }, 5),
      ],
    });
    const pairs = aggregateMetricFlows(flows, 60_000, now);
    expect(pairs.map((p) => [p.id, p.bytes, p.ports])).toEqual([
      ['deployment/shop/web→statefulset/shop/db', 6000, [{ protocol: 'TCP', port: 5432, flows: 1 }]],
      ['node/n1→statefulset/shop/db', 10, [{ protocol: 'TCP', port: 5432, flows: 1 }]],
      ['external/203.0.113.9→statefulset/shop/db', 5, [{ protocol: 'TCP', port: 5432, flows: 1 }]],
    ]);
    expect(pairs[0]).toMatchObject({ requests: 0, requestRate: 0, errorRate: 0 });
  });
});

describe('Beyla series → pairs', () => {
  it('joins network bytes by owner with server-side HTTP requests by client address onto one pair', () => {
    const flows = metricFlows('beyla', namer, {
      requests: [
        sample(
          {
            k8s_namespace_name: 'shop',
            k8s_owner_name: 'orders',
            k8s_deployment_name: 'orders',
            client_address: 'web.shop',
            server_port: '8080',
            http_response_status_code: '200',
          },
          90,
        ),
        sample(
          {
            k8s_namespace_name: 'shop',
            k8s_owner_name: 'orders',
            k8s_deployment_name: 'orders',
            client_address: '10.0.0.5',
            server_port: '8080',
            http_response_status_code: '500',
          },
          10,
        ),
      ],
      bytes: [
        sample(
          {
            k8s_src_owner_type: 'Deployment',
            k8s_src_owner_name: 'web',
            k8s_src_namespace: 'shop',
            k8s_dst_owner_type: 'Deployment',
            k8s_dst_owner_name: 'orders',
            k8s_dst_namespace: 'shop',
            dst_port: '8080',
            transport: 'TCP',
          },
          4096,
        ),
      ],
    });
    const pairs = aggregateMetricFlows(flows, 10_000, now);
    expect(pairs.map((p) => [p.id, p.requests, p.errors, p.requestRate, p.bytes, p.httpStatus])).toEqual([
      ['deployment/shop/web→deployment/shop/orders', 90, 0, 9, 4096, { '200': 90 }],
      ['pod/shop/client→deployment/shop/orders', 10, 10, 1, 0, { '500': 10 }],
    ]);
    expect(pairs[0]?.ports).toEqual([{ protocol: 'TCP', port: 8080, flows: 2 }]);
  });
});

describe('metric pairs a restricted caller sees', () => {
  it('merges every peer outside its namespaces into the one hidden pair, counts added up', () => {
    const end = (namespace: string, name: string) => endpoint('Deployment', name, namespace);
    const flow = (source: string, bytes: number) => ({
      source: end(source, 'web'),
      destination: end('shop', 'orders'),
      requests: 1,
      errors: 0,
      bytes,
      httpStatus: {},
    });
    const view = { namespaces: ['shop'], nodesHidden: true };
    const pairs = aggregateMetricFlows(
      visibleFlows([flow('a', 10), flow('b', 20), flow('shop', 5)], view),
      1000,
      now,
    );
    expect(pairs.map((p) => [p.id, p.bytes, p.flows])).toEqual([
      ['hidden→deployment/shop/orders', 30, 2],
      ['deployment/shop/web→deployment/shop/orders', 5, 1],
    ]);
    expect(pairs[0]?.source).toEqual({ id: 'hidden', kind: 'Hidden', name: 'hidden' });
  });
});
