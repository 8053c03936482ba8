import type { KubeObject } from '@binnacle/common';
import { hubbleFlow, world } from '@binnacle/testkit';
import { describe, expect, it } from 'vitest';
import { aggregateFlows } from './aggregate.ts';
import { fromHubble } from './hubble-flow.ts';
import type { HubbleFlow } from './hubble-proto.ts';
import { EndpointResolver } from './resolve.ts';

const owned = (kind: string, name: string) => [
  { apiVersion: 'apps/v1', kind, name, uid: name, controller: true },
];
const pod = (namespace: string, name: string, ip: string, owner?: [string, string]): KubeObject => ({
  kind: 'Pod',
  metadata: { namespace, name, ...(owner ? { ownerReferences: owned(...owner) } : {}) },
  status: { podIP: ip },
});
const web = pod('shop', 'web-1', '10.0.0.5', ['ReplicaSet', 'web-7d9']);
const db = pod('data', 'db-0', '10.0.0.9', ['StatefulSet', 'db']);
const bare = pod('shop', 'debug', '10.0.0.7');
const resolver = new EndpointResolver({
  pods: [web, db, bare],
  services: [
    { kind: 'Service', metadata: { namespace: 'shop', name: 'web' }, spec: { clusterIP: '10.96.0.10' } },
  ],
  nodes: [{ kind: 'Node', metadata: { name: 'n1' }, status: { addresses: [{ address: '172.18.0.2' }] } }],
  replicaSets: [
    {
      kind: 'ReplicaSet',
      metadata: { namespace: 'shop', name: 'web-7d9', ownerReferences: owned('Deployment', 'web') },
    },
  ],
  jobs: [],
});
const record = (flow: Record<string, unknown>) => fromHubble(flow as HubbleFlow);

describe('endpoint resolution', () => {
  it('names a pod after its top-level workload, by namespace/name or by IP alone', () => {
    expect(resolver.resolve({ namespace: 'shop', pod: 'web-1' })).toMatchObject({
      id: 'deployment/shop/web',
      kind: 'Deployment',
    });
    expect(resolver.resolve({ ip: '10.0.0.9' })).toMatchObject({ id: 'statefulset/data/db' });
    expect(resolver.resolve({ ip: '10.0.0.7' })).toMatchObject({ id: 'pod/shop/debug', kind: 'Pod' });
  });

  it("names a workload a metrics source gives by name: its own kind, else the running pods' owner, else Deployment", () => {
    expect(resolver.named('data', 'db', 'statefulset')).toEqual({
      id: 'statefulset/data/db',
      kind: 'StatefulSet',
      name: 'db',
      namespace: 'data',
    });
    expect(resolver.named('data', 'db').id).toBe('statefulset/data/db');
    expect(resolver.named('shop', 'web').id).toBe('deployment/shop/web');
    expect(resolver.named('shop', 'gone').id).toBe('deployment/shop/gone');
    expect(resolver.named('', 'n1', 'Node')).toEqual({ id: 'node/n1', kind: 'Node', name: 'n1' });
  });

  it('names a Service cluster IP, a node address, and falls back to External (DNS name, else IP)', () => {
    expect(resolver.resolve({ ip: '10.96.0.10' })).toMatchObject({ id: 'service/shop/web', kind: 'Service' });
    expect(resolver.resolve({ ip: '172.18.0.2' })).toEqual({
      id: 'node/n1',
      kind: 'Node',
      name: 'n1',
      ip: '172.18.0.2',
    });
    expect(resolver.resolve({ ip: '1.2.3.4', names: ['api.example.com'] })).toMatchObject({
      id: 'external/api.example.com',
      kind: 'External',
    });
    expect(resolver.resolve({ ip: '1.2.3.4' })).toMatchObject({ id: 'external/1.2.3.4' });
  });

  it("uses the source's workload for a pod the cache no longer has", () => {
    expect(
      resolver.resolve({ namespace: 'shop', pod: 'gone-1', workload: { kind: 'Deployment', name: 'old' } }),
    ).toMatchObject({ id: 'deployment/shop/old' });
  });
});

describe('aggregation per pair', () => {
  it('adds up flows, connections, requests, 5xx errors, statuses and verdicts; replies land on the request pair', () => {
    const time = 1_700_000_000_000;
    const flows = [
      hubbleFlow(web, db, { time, syn: true, port: 5432 }),
      hubbleFlow(web, db, { time, http: { type: 'REQUEST' }, port: 5432 }),
      hubbleFlow(web, db, { time, http: { type: 'RESPONSE', code: 200, latencyMs: 2 }, port: 5432 }),
      hubbleFlow(web, db, { time, http: { type: 'REQUEST' }, port: 5432 }),
      hubbleFlow(web, db, {
        time: time + 1000,
        http: { type: 'RESPONSE', code: 503, latencyMs: 6 },
        port: 5432,
      }),
      hubbleFlow(web, world('8.8.8.8'), { time, verdict: 'DROPPED', port: 443, syn: true }),
    ].map((f) => resolver.flow(record(f)));
    const pairs = aggregateFlows(flows, 60_000);
    expect(pairs).toHaveLength(2);
    expect(pairs[0]).toEqual({
      id: 'deployment/shop/web→statefulset/data/db',
      source: {
        id: 'deployment/shop/web',
        kind: 'Deployment',
        name: 'web',
        namespace: 'shop',
        ip: '10.0.0.5',
      },
      destination: {
        id: 'statefulset/data/db',
        kind: 'StatefulSet',
        name: 'db',
        namespace: 'data',
        ip: '10.0.0.9',
      },
      ports: [{ protocol: 'TCP', port: 5432, flows: 5, dropped: 0 }],
      flows: 5,
      connections: 1,
      requests: 2,
      errors: 1,
      requestRate: 0.033,
      errorRate: 0.5,
      verdicts: { forwarded: 5 },
      httpStatus: { '200': 1, '503': 1 },
      avgLatencyMs: 4,
      lastSeen: new Date(time + 1000).toISOString(),
    });
    expect(pairs[1]).toMatchObject({
      id: 'deployment/shop/web→external/8.8.8.8',
      verdicts: { dropped: 1 },
      connections: 1,
      ports: [{ protocol: 'TCP', port: 443, flows: 1, dropped: 1 }],
    });
  });
});
