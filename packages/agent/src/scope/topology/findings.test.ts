import type { KubeObject } from '@binnacle/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CertFactory, certFactory, tlsSecret } from '../../testing/certs.ts';
import type { FindingCounts } from '../audit/report.ts';
import type { AuditCounts } from '../audit/tally.ts';
import type { TopologyInput } from './builder.ts';
import { withFindings } from './findings.ts';
import type { Topology, TopologyNode } from './model.ts';

let factory: CertFactory;
let input: TopologyInput;

const node = (kind: string, name: string, namespace = 'apps'): TopologyNode => ({
  id: `${kind.toLowerCase()}/${namespace}/${name}`,
  kind,
  namespace,
  name,
  status: 'healthy',
  data: {},
});
const ingress = (name: string, secrets: string[]): KubeObject => ({
  kind: 'Ingress',
  metadata: { name, namespace: 'apps' },
  spec: { tls: secrets.map((secretName) => ({ hosts: ['a.example'], secretName })) },
});
/** The audit's counts as the engine answers them, from literal per-object and per-namespace figures. */
const counts = (
  objects: Record<string, FindingCounts>,
  namespaces: Record<string, FindingCounts> = {},
): AuditCounts => ({
  ofObject: (key) => objects[key],
  ofNamespace: (namespace) => namespaces[namespace],
});

beforeAll(() => {
  factory = certFactory();
  input = {
    Secret: [
      tlsSecret('fresh', { crt: factory.make({ cn: 'a.example', valid: [-1, 90] }).cert }),
      tlsSecret('soon', { crt: factory.make({ cn: 'a.example', valid: [-60, 5] }).cert }),
      tlsSecret('gone', { crt: factory.make({ cn: 'a.example', valid: [-60, -2] }).cert }),
      tlsSecret('month', { crt: factory.make({ cn: 'a.example', valid: [-60, 20] }).cert }),
      { kind: 'Secret', metadata: { name: 'plain', namespace: 'apps' }, type: 'Opaque', data: {} },
    ],
    Ingress: [
      ingress('web', ['fresh', 'gone']),
      ingress('api', ['soon']),
      ingress('shop', ['month']),
      ingress('other', ['plain', 'missing']),
    ],
    Gateway: [
      {
        kind: 'Gateway',
        metadata: { name: 'edge', namespace: 'apps' },
        spec: { listeners: [{ name: 'https', tls: { certificateRefs: [{ name: 'soon' }] } }] },
      },
    ],
  };
});
afterAll(() => factory.dispose());

const graph = (nodes: TopologyNode[]): Topology => ({ nodes, edges: [], warnings: [] });
const byName = (topology: Topology) =>
  Object.fromEntries(topology.nodes.map((n) => [`${n.kind}/${n.name}`, n]));

describe('withFindings', () => {
  it("lowers an Ingress's or Gateway's health by the most urgent certificate it serves; a warning leaves it", () => {
    const nodes = [
      node('Ingress', 'web'),
      node('Ingress', 'api'),
      node('Ingress', 'shop'),
      node('Ingress', 'other'),
      node('Gateway', 'edge'),
      node('Secret', 'gone'),
    ];
    const out = byName(withFindings(graph(nodes), input, { certificates: true }, factory.now));
    expect(out['Ingress/web']).toMatchObject({
      status: 'unhealthy',
      data: { certificate: { secret: 'apps/gone', severity: 'expired', daysLeft: -2 } },
    });
    expect(out['Ingress/api']).toMatchObject({
      status: 'degraded',
      data: { certificate: { secret: 'apps/soon', severity: 'critical', daysLeft: 5 } },
    });
    expect(out['Ingress/shop']).toMatchObject({
      status: 'healthy',
      data: { certificate: { severity: 'warning', daysLeft: 20 } },
    });
    expect(out['Ingress/other']?.data).toEqual({});
    expect(out['Gateway/edge']).toMatchObject({
      status: 'degraded',
      data: { certificate: { secret: 'apps/soon' } },
    });
    expect(out['Secret/gone']).toMatchObject({
      status: 'unhealthy',
      data: { certificate: { severity: 'expired' } },
    });
  });

  it('keeps a worse runtime health, and shows no certificate to a caller who may not read Secrets', () => {
    const failing = { ...node('Ingress', 'api'), status: 'unhealthy' as const };
    expect(withFindings(graph([failing]), input, { certificates: true }, factory.now).nodes[0]?.status).toBe(
      'unhealthy',
    );
    const hidden = withFindings(graph([node('Ingress', 'web')]), input, { certificates: false }, factory.now);
    expect(hidden.nodes[0]).toEqual(node('Ingress', 'web'));
  });

  it("counts each object's audit findings by severity", () => {
    const audit = counts({
      'Deployment/apps/web': { warning: 2, danger: 1 },
      'Service/apps/web': { warning: 1, danger: 0 },
    });
    const out = byName(
      withFindings(
        graph([node('Deployment', 'web'), node('Service', 'web'), node('Pod', 'web-1')]),
        {},
        { audit, certificates: false },
        factory.now,
      ),
    );
    expect(out['Deployment/web']?.data).toEqual({ audit: { warning: 2, danger: 1 } });
    expect(out['Deployment/web']?.status).toBe('healthy');
    expect(out['Service/web']?.data).toEqual({ audit: { warning: 1, danger: 0 } });
    expect(out['Pod/web-1']?.data).toEqual({});
  });

  it('counts the audit per namespace on a graph collapsed to namespaces', () => {
    const collapsed: Topology = {
      ...graph([
        { id: 'namespace/apps', kind: 'Namespace', name: 'apps', status: 'healthy', data: { pods: 3 } },
        { id: 'namespace/quiet', kind: 'Namespace', name: 'quiet', status: 'healthy', data: { pods: 1 } },
      ]),
      collapsedToNamespaces: true,
    };
    const audit = counts({}, { apps: { warning: 1, danger: 1 } });
    const out = byName(withFindings(collapsed, {}, { audit, certificates: true }, factory.now));
    expect(out['Namespace/apps']?.data).toEqual({ pods: 3, audit: { warning: 1, danger: 1 } });
    expect(out['Namespace/quiet']?.data).toEqual({ pods: 1 });
  });
});
