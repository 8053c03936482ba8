import { describe, expect, it } from 'vitest';
import { kindChoices, layoutKey, openedObject, shownGraph, type TopologyNode } from './graph.ts';
import { node, shopTopology as topology } from './shop-topology.fixture.ts';

const all = { hiddenKinds: [], health: [] };
const edgeIds = (graph: ReturnType<typeof shownGraph>) => graph.edges.map((e) => e.id).sort();

describe('the graph as drawn', () => {
  it('draws a shortcut edge only while the kind it skips is hidden', () => {
    expect(edgeIds(shownGraph(topology, all, 'none'))).not.toContain('d-p');
    const withoutReplicaSets = shownGraph(topology, { ...all, hiddenKinds: ['ReplicaSet'] }, 'none');
    expect(edgeIds(withoutReplicaSets)).toContain('d-p');
    expect(edgeIds(withoutReplicaSets)).not.toContain('rs-p');
  });

  it('keeps only the health states asked for, and the edges between what is left', () => {
    const failing = shownGraph(topology, { ...all, health: ['unhealthy'] }, 'none');
    expect(failing.nodes.map((n) => n.name)).toEqual(['web-1-a']);
    expect(failing.edges).toEqual([]);
  });

  it('groups applications by their connections without letting an Ingress merge them', () => {
    const graph = shownGraph(topology, all, 'app');
    expect([...graph.groups.values()].sort()).toEqual(['api (shop)', 'web (shop)']);
    expect(graph.groupOf.get('pod/shop/web-1-a')).toBe('app:shop/web');
    expect(graph.groupOf.get('ingress/shop/front')).toBeUndefined();
    expect(graph.groupOf.get('configmap/shop/loose')).toBeUndefined();
  });

  it("offers Knative's Service as a kind of its own beside the core Service, each hidden alone", () => {
    const knative: TopologyNode = {
      ...node('Service', 'hello'),
      id: 'service.serving.knative.dev/shop/hello',
      group: 'serving.knative.dev',
    };
    const both = { ...topology, nodes: [...topology.nodes, knative] };
    expect(kindChoices(both).filter((c) => c.label.startsWith('Service'))).toEqual([
      { kind: 'Service', label: 'Service', count: 2 },
      { kind: 'Service.serving.knative.dev', label: 'Service · Knative Serving', count: 1 },
    ]);
    const ids = (hiddenKinds: string[]) =>
      shownGraph(both, { ...all, hiddenKinds }, 'none')
        .nodes.filter((n) => n.kind === 'Service')
        .map((n) => n.id);
    expect(ids(['Service'])).toEqual(['service.serving.knative.dev/shop/hello']);
    expect(ids(['Service.serving.knative.dev'])).toEqual(['service/shop/web', 'service/shop/api']);
  });

  it('groups by namespace', () => {
    const graph = shownGraph(topology, all, 'namespace');
    expect([...graph.groups]).toEqual([['ns:shop', 'namespace shop']]);
    expect(new Set(graph.groupOf.values())).toEqual(new Set(['ns:shop']));
  });

  it('draws no frames around a cluster collapsed to one node per namespace', () => {
    const collapsed = {
      nodes: [
        {
          id: 'namespace/shop',
          kind: 'Namespace',
          name: 'shop',
          status: 'healthy' as const,
          data: { objects: 9 },
        },
      ],
      edges: [],
      warnings: [],
      collapsedToNamespaces: true,
    };
    for (const grouping of ['namespace', 'app'] as const) {
      const graph = shownGraph(collapsed, all, grouping);
      expect(graph.nodes.map((n) => n.id)).toEqual(['namespace/shop']);
      expect(graph.groups.size).toBe(0);
    }
  });

  it('lays out again when objects or connections change, not when a status does', () => {
    const before = layoutKey(shownGraph(topology, all, 'none'));
    const recoloured = {
      ...topology,
      nodes: topology.nodes.map((n) => ({ ...n, status: 'degraded' as const })),
    };
    expect(layoutKey(shownGraph(recoloured, all, 'none'))).toBe(before);
    const fewer = { ...topology, nodes: topology.nodes.slice(1) };
    expect(layoutKey(shownGraph(fewer, all, 'none'))).not.toBe(before);
  });

  it("opens a pod group's owner", () => {
    const group = topology.nodes.at(-1) as TopologyNode;
    expect(openedObject(group, topology)).toEqual({ kind: 'Deployment', namespace: 'shop', name: 'api' });
    expect(openedObject(topology.nodes[1] as TopologyNode, topology)).toEqual({
      kind: 'Service',
      namespace: 'shop',
      name: 'web',
    });
  });

  it('opens an ecosystem object by Kind.group, and a placeholder of a missing object nowhere', () => {
    const certificate: TopologyNode = {
      id: 'certificate.cert-manager.io/shop/web-tls',
      kind: 'Certificate',
      group: 'cert-manager.io',
      namespace: 'shop',
      name: 'web-tls',
      status: 'healthy',
      data: {},
    };
    const missing: TopologyNode = {
      id: 'clusterissuer.cert-manager.io/gone',
      kind: 'ClusterIssuer',
      group: 'cert-manager.io',
      name: 'gone',
      status: 'unhealthy',
      data: { missing: true },
    };
    expect(openedObject(certificate, topology)).toEqual({
      kind: 'Certificate.cert-manager.io',
      namespace: 'shop',
      name: 'web-tls',
    });
    expect(openedObject(missing, topology)).toBeUndefined();
  });
});
