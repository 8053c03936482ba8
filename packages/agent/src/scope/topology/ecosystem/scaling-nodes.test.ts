import { describe, expect, it } from 'vitest';
import { buildTopology, defaultTopologyOptions } from '../builder.ts';
import { edgeLines, inputOf, object, ownedBy } from './objects.fixture.ts';

describe('KEDA', () => {
  const deployment = object('apps/v1', 'Deployment', 'shop', 'worker', {
    spec: { replicas: 1, template: { metadata: { labels: { app: 'worker' } }, spec: { containers: [] } } },
  });
  const scaled = object('keda.sh/v1alpha1', 'ScaledObject', 'shop', 'worker', {
    spec: {
      scaleTargetRef: { name: 'worker' },
      maxReplicaCount: 10,
      triggers: [
        { type: 'rabbitmq', authenticationRef: { name: 'rabbit' } },
        { type: 'aws-sqs-queue', authenticationRef: { name: 'aws', kind: 'ClusterTriggerAuthentication' } },
      ],
    },
  });
  const hpa = object('autoscaling/v2', 'HorizontalPodAutoscaler', 'shop', 'keda-hpa-worker', {
    metadata: { ownerReferences: ownedBy(scaled) },
    spec: { scaleTargetRef: { kind: 'Deployment', name: 'worker' }, maxReplicas: 10 },
  });
  const auth = object('keda.sh/v1alpha1', 'TriggerAuthentication', 'shop', 'rabbit');
  const clusterAuth = object('keda.sh/v1alpha1', 'ClusterTriggerAuthentication', undefined, 'aws');

  it('draws ScaledObject → its Deployment and the HPA KEDA made, its trigger authentications → it', () => {
    const t = buildTopology(inputOf(deployment, scaled, hpa, auth, clusterAuth));
    // The direct edge is a shortcut past the HPA, drawn while HPAs are hidden.
    expect(
      t.edges.find((e) => e.type === 'uses' && e.source.startsWith('scaledobject'))?.skipIfKindVisible,
    ).toBe('HorizontalPodAutoscaler');
    expect(edgeLines(t.edges)).toEqual([
      'clustertriggerauthentication.keda.sh/aws -configures-> scaledobject.keda.sh/shop/worker',
      'horizontalpodautoscaler/shop/keda-hpa-worker -uses-> deployment/shop/worker',
      'scaledobject.keda.sh/shop/worker -manages-> horizontalpodautoscaler/shop/keda-hpa-worker',
      'scaledobject.keda.sh/shop/worker -uses-> deployment/shop/worker',
      'triggerauthentication.keda.sh/shop/rabbit -configures-> scaledobject.keda.sh/shop/worker',
    ]);
    expect(t.nodes.find((n) => n.kind === 'ScaledObject')?.data).toEqual({
      min: 0,
      max: 10,
      triggers: ['rabbitmq', 'aws-sqs-queue'],
      paused: false,
    });
  });

  it('finds the HPA a ScaledObject names, and flags a scale target that does not exist', () => {
    const named = object('keda.sh/v1alpha1', 'ScaledObject', 'shop', 'batch', {
      spec: {
        scaleTargetRef: { name: 'gone', kind: 'StatefulSet', apiVersion: 'apps/v1' },
        advanced: { horizontalPodAutoscalerConfig: { name: 'batch-hpa' } },
      },
    });
    const namedHpa = object('autoscaling/v2', 'HorizontalPodAutoscaler', 'shop', 'batch-hpa', { spec: {} });
    const t = buildTopology({ ...inputOf(named, namedHpa), StatefulSet: [] });
    expect(edgeLines(t.edges)).toEqual([
      'scaledobject.keda.sh/shop/batch -manages-> horizontalpodautoscaler/shop/batch-hpa',
      'scaledobject.keda.sh/shop/batch -uses-> statefulset/shop/gone',
    ]);
    expect(t.nodes.find((n) => n.id === 'statefulset/shop/gone')?.data.missing).toBe(true);
    expect(t.nodes.find((n) => n.kind === 'ScaledObject')?.data.problems).toEqual([
      'StatefulSet shop/gone does not exist',
    ]);
  });
});

describe('Karpenter', () => {
  const pool = object('karpenter.sh/v1', 'NodePool', undefined, 'default', {
    status: { resources: { nodes: '2' } },
  });
  const claim = (name: string, node?: string) =>
    object('karpenter.sh/v1', 'NodeClaim', undefined, name, {
      metadata: { labels: { 'karpenter.sh/nodepool': 'default' } },
      status: node ? { nodeName: node } : {},
    });
  const node = object('v1', 'Node', undefined, 'ip-10-0-0-1');

  it('draws NodePool → NodeClaim → Node, and no Node nothing names', () => {
    const other = object('v1', 'Node', undefined, 'static-1');
    const t = buildTopology(
      inputOf(pool, claim('default-a', 'ip-10-0-0-1'), claim('default-b'), node, other),
    );
    expect(edgeLines(t.edges)).toEqual([
      'nodeclaim.karpenter.sh/default-a -manages-> node/ip-10-0-0-1',
      'nodepool.karpenter.sh/default -manages-> nodeclaim.karpenter.sh/default-a',
      'nodepool.karpenter.sh/default -manages-> nodeclaim.karpenter.sh/default-b',
    ]);
    expect(t.nodes.some((n) => n.id === 'node/static-1')).toBe(false);
  });

  it('draws nothing of Karpenter in a namespace graph', () => {
    const t = buildTopology(inputOf(pool, claim('default-a', 'ip-10-0-0-1'), node), {
      ...defaultTopologyOptions,
      namespaces: ['shop'],
    });
    expect(t.nodes).toEqual([]);
  });
});

describe('Knative Serving', () => {
  const kn = 'serving.knative.dev/v1';
  const service = object(kn, 'Service', 'shop', 'hello', { status: { url: 'http://hello.shop.example' } });
  const coreService = object('v1', 'Service', 'shop', 'hello', { spec: {} });
  const configuration = object(kn, 'Configuration', 'shop', 'hello', {
    metadata: { labels: { 'serving.knative.dev/service': 'hello' } },
  });
  const route = object(kn, 'Route', 'shop', 'hello', {
    metadata: { ownerReferences: ownedBy(service) },
    status: { traffic: [{ revisionName: 'hello-00002', percent: 100 }] },
  });
  const revision = (name: string) =>
    object(kn, 'Revision', 'shop', name, {
      metadata: { labels: { 'serving.knative.dev/configuration': 'hello' } },
    });
  const deployment = object('apps/v1', 'Deployment', 'shop', 'hello-00002-deployment', {
    spec: { template: { spec: { containers: [] } } },
  });

  it('draws Service → Configuration → Revision → Deployment and Route → the Revision it sends traffic to', () => {
    const input = inputOf(
      service,
      coreService,
      configuration,
      route,
      revision('hello-00001'),
      revision('hello-00002'),
      deployment,
    );
    const t = buildTopology(input);
    expect(edgeLines(t.edges)).toEqual([
      'configuration.serving.knative.dev/shop/hello -manages-> revision.serving.knative.dev/shop/hello-00001',
      'configuration.serving.knative.dev/shop/hello -manages-> revision.serving.knative.dev/shop/hello-00002',
      'revision.serving.knative.dev/shop/hello-00002 -manages-> deployment/shop/hello-00002-deployment',
      'route.serving.knative.dev/shop/hello -routes-to-> revision.serving.knative.dev/shop/hello-00002',
      'service.serving.knative.dev/shop/hello -manages-> configuration.serving.knative.dev/shop/hello',
      'service.serving.knative.dev/shop/hello -manages-> route.serving.knative.dev/shop/hello',
    ]);
    // The core Service of the same name is a node of its own.
    const services = t.nodes.filter((n) => n.kind === 'Service');
    expect(services.map((n) => [n.id, n.group, n.data.url])).toEqual([
      ['service.serving.knative.dev/shop/hello', 'serving.knative.dev', 'http://hello.shop.example'],
      ['service/shop/hello', undefined, undefined],
    ]);
  });
});
