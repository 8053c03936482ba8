import { describe, expect, it } from 'vitest';
import { defaultTopologyOptions } from './builder.ts';
import { generatedCluster } from './generated-cluster.fixture.ts';
import { reducedTopology } from './level-of-detail.ts';

const limit = 2000;

describe('the whole cluster above topologyMaxNodes', () => {
  it('keeps each owner as a named pod group with its count and health, leaving ConfigMaps out', () => {
    const t = reducedTopology(generatedCluster(10_000, 100), defaultTopologyOptions, limit);
    expect(t.levelOfDetail).toBe('pod-groups');
    expect(t.leftOutKinds).toEqual(['ConfigMap']);
    expect(t.nodes.length).toBeLessThanOrEqual(limit);
    expect(new Set(t.nodes.map((n) => n.kind))).toEqual(new Set(['Deployment', 'PodGroup', 'Service']));
    const group = t.nodes.find((n) => n.id === 'podgroup/team-0/deployment-app-0');
    expect(group).toMatchObject({
      name: 'app-0 pods',
      status: 'unhealthy',
      data: { count: 100, unhealthy: 10, expandable: false },
    });
    expect(t.edges).toContainEqual(
      expect.objectContaining({ source: 'deployment/team-0/app-0', target: group?.id, type: 'manages' }),
    );
    expect(t.edges).toContainEqual(
      expect.objectContaining({
        source: 'service/team-0/app-0',
        target: 'deployment/team-0/app-0',
        type: 'exposes',
      }),
    );
  });

  it('counts each namespace per kind when even the workloads exceed the limit', () => {
    for (const pods of [10_000, 50_000]) {
      const t = reducedTopology(generatedCluster(pods, 2), defaultTopologyOptions, limit);
      expect(t.levelOfDetail).toBe('kinds');
      expect(t.nodes).toHaveLength(20 * 3);
      expect(t.edges).toEqual([]);
      const deployments = t.nodes.find((n) => n.id === 'kindgroup/team-0/deployment');
      expect(deployments).toMatchObject({
        name: `Deployment × ${pods / 2 / 20}`,
        data: { of: 'Deployment' },
      });
      // team-0 holds every 20th Deployment, whose first pod is a tenth pod: half of its pods fail.
      const podsOf = t.nodes.find((n) => n.id === 'kindgroup/team-0/pod');
      expect(podsOf).toMatchObject({ status: 'unhealthy', data: { count: pods / 20, unhealthy: pods / 40 } });
      // Bounded whatever the cluster's size: a few hundred bytes a node.
      expect(JSON.stringify(t).length).toBeLessThan(30_000);
    }
  });

  it('falls back to one node per namespace when even the kinds exceed the limit', () => {
    const t = reducedTopology(generatedCluster(1000, 2), defaultTopologyOptions, 50);
    expect(t).toMatchObject({ levelOfDetail: 'namespaces', collapsedToNamespaces: true });
    expect(t.nodes.map((n) => n.id)).toContain('namespace/team-0');
    expect(t.nodes).toHaveLength(20);
  });
});
