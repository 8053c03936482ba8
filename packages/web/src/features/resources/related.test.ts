import { describe, expect, it } from 'vitest';
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
});
