import { describe, expect, it } from 'vitest';
import type { Topology, TopologyNode } from '../topology/graph.ts';
import { shopTopology } from '../topology/shop-topology.fixture.ts';
import { relatedObjects, topologyId } from './related.ts';

const summary = (id: string) =>
  Object.fromEntries(
    relatedObjects(shopTopology, id).map((g) => [g.title, g.nodes.map((n) => `${n.kind}/${n.name}`)]),
  );

describe('the objects related to one object', () => {
  it('gives a pod its owners up the chain, nearest first, and what its workload is tied to', () => {
    expect(summary(topologyId('Pod', 'shop', 'web-1-a'))).toEqual({
      'Owned by': ['ReplicaSet/web-1', 'Deployment/web'],
      Services: ['Service/web'],
      Configuration: ['ConfigMap/web-config'],
      'Disruption budgets': ['PodDisruptionBudget/web'],
    });
  });

  it('gives a workload what it manages down the chain, each object once, nearest first', () => {
    expect(summary('deployment/shop/web')).toEqual({
      Owns: ['ReplicaSet/web-1', 'Pod/web-1-a'],
      Services: ['Service/web'],
      Configuration: ['ConfigMap/web-config'],
      'Disruption budgets': ['PodDisruptionBudget/web'],
    });
    expect(summary('deployment/shop/api')).toEqual({
      Owns: ['PodGroup/api pods'],
      Services: ['Service/api'],
    });
  });

  it('gives a Service the workloads it exposes, their pods and what routes to it', () => {
    expect(summary('service/shop/web')).toEqual({
      Pods: ['Pod/web-1-a'],
      Exposes: ['Deployment/web'],
      Ingresses: ['Ingress/front'],
    });
  });

  it('has nothing for an object tied to nothing or missing from the graph', () => {
    expect(relatedObjects(shopTopology, 'configmap/shop/loose')).toEqual([]);
    expect(relatedObjects(shopTopology, 'deployment/shop/gone')).toEqual([]);
  });

  it('finds an ecosystem object by its group, apart from a core object of the same kind and name', () => {
    const node = (kind: string, group: string | undefined, name: string, data = {}): TopologyNode => ({
      id: topologyId(kind, 'shop', name, group),
      kind,
      ...(group ? { group } : {}),
      namespace: 'shop',
      name,
      status: 'healthy',
      data,
    });
    const knative = node('Service', 'serving.knative.dev', 'hello');
    const core = node('Service', undefined, 'hello');
    const route = node('Route', 'serving.knative.dev', 'hello');
    const gone = node('Revision', 'serving.knative.dev', 'hello-00003', { missing: true });
    const topology: Topology = {
      nodes: [knative, core, route, gone],
      edges: [
        { id: 'a', source: knative.id, target: route.id, type: 'manages' },
        { id: 'b', source: route.id, target: gone.id, type: 'routes-to' },
      ],
      warnings: [],
    };
    expect(knative.id).toBe('service.serving.knative.dev/shop/hello');
    const related = (id: string) =>
      Object.fromEntries(relatedObjects(topology, id).map((g) => [g.title, g.nodes.map((n) => n.id)]));
    expect(related(topologyId('Service', 'shop', 'hello', 'serving.knative.dev'))).toEqual({
      Owns: [route.id],
      Revisions: [gone.id],
    });
    expect(related(topologyId('Service', 'shop', 'hello'))).toEqual({});
  });
});
