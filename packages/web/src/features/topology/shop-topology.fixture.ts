import type { Topology, TopologyNode } from './graph.ts';

/** An object of the shop namespace, healthy unless told. */
export const node = (
  kind: string,
  name: string,
  status: TopologyNode['status'] = 'healthy',
): TopologyNode => ({
  id: `${kind.toLowerCase()}/shop/${name}`,
  kind,
  namespace: 'shop',
  name,
  status,
  data: {},
});

/** A shop namespace: an Ingress in front of two applications, one of them with more pods than are drawn. */
export const shopTopology: Topology = {
  nodes: [
    node('Ingress', 'front'),
    node('Service', 'web'),
    node('Deployment', 'web'),
    node('ReplicaSet', 'web-1'),
    node('Pod', 'web-1-a', 'unhealthy'),
    node('Service', 'api'),
    node('Deployment', 'api'),
    node('ConfigMap', 'web-config'),
    node('PodDisruptionBudget', 'web'),
    node('ConfigMap', 'loose'),
    { ...node('PodGroup', 'api pods'), id: 'podgroup/shop/deployment-api' },
  ],
  edges: [
    { id: 'i-w', source: 'ingress/shop/front', target: 'service/shop/web', type: 'routes-to' },
    { id: 'i-a', source: 'ingress/shop/front', target: 'service/shop/api', type: 'routes-to' },
    { id: 's-d', source: 'service/shop/web', target: 'deployment/shop/web', type: 'exposes' },
    { id: 'd-rs', source: 'deployment/shop/web', target: 'replicaset/shop/web-1', type: 'manages' },
    { id: 'rs-p', source: 'replicaset/shop/web-1', target: 'pod/shop/web-1-a', type: 'manages' },
    {
      id: 'd-p',
      source: 'deployment/shop/web',
      target: 'pod/shop/web-1-a',
      type: 'manages',
      skipIfKindVisible: 'ReplicaSet',
    },
    { id: 'c-d', source: 'configmap/shop/web-config', target: 'deployment/shop/web', type: 'configures' },
    { id: 'b-d', source: 'poddisruptionbudget/shop/web', target: 'deployment/shop/web', type: 'protects' },
    { id: 'sa-da', source: 'service/shop/api', target: 'deployment/shop/api', type: 'exposes' },
    { id: 'da-pg', source: 'deployment/shop/api', target: 'podgroup/shop/deployment-api', type: 'manages' },
  ],
  warnings: [],
};
