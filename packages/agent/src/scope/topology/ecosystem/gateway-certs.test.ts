import { describe, expect, it } from 'vitest';
import { buildTopology, defaultTopologyOptions } from '../builder.ts';
import { edgeLines, inputOf, object, ownedBy } from './objects.fixture.ts';

const gw = 'gateway.networking.k8s.io/v1';

describe('Gateway API', () => {
  const svc = object('v1', 'Service', 'shop', 'web', { spec: { selector: { app: 'web' } } });
  const gateway = object(gw, 'Gateway', 'infra', 'edge', { spec: { gatewayClassName: 'envoy' } });
  const gatewayClass = object(gw, 'GatewayClass', undefined, 'envoy', { spec: { controllerName: 'envoy' } });
  const route = (backends: Record<string, unknown>[]) =>
    object(gw, 'HTTPRoute', 'shop', 'web', {
      spec: { parentRefs: [{ name: 'edge', namespace: 'infra' }], rules: [{ backendRefs: backends }] },
    });

  it('draws Gateway → GatewayClass, the route under its Gateway and to its Service', () => {
    const t = buildTopology(inputOf(svc, gateway, gatewayClass, route([{ name: 'web', port: 80 }])));
    expect(edgeLines(t.edges)).toEqual([
      'gateway/infra/edge -routes-to-> httproute/shop/web',
      'gateway/infra/edge -uses-> gatewayclass.gateway.networking.k8s.io/envoy',
      'httproute/shop/web -routes-to-> service/shop/web',
    ]);
    const node = t.nodes.find((n) => n.kind === 'GatewayClass');
    expect(node).toMatchObject({ group: 'gateway.networking.k8s.io', data: { controller: 'envoy' } });
  });

  it('flags a backend that names no Service, with a placeholder for it', () => {
    const t = buildTopology(inputOf(svc, gateway, gatewayClass, route([{ name: 'web' }, { name: 'gone' }])));
    const placeholder = t.nodes.find((n) => n.id === 'service/shop/gone');
    expect(placeholder).toMatchObject({
      kind: 'Service',
      status: 'unhealthy',
      data: { missing: true, problems: ['does not exist; named by HTTPRoute shop/web'] },
    });
    expect(t.nodes.find((n) => n.id === 'httproute/shop/web')).toMatchObject({
      status: 'degraded',
      data: { problems: ['Service shop/gone does not exist'] },
    });
    expect(edgeLines(t.edges)).toContain('httproute/shop/web -routes-to-> service/shop/gone');
  });

  it('flags a backend in another namespace unless a ReferenceGrant there lets the route name it', () => {
    const other = object('v1', 'Service', 'api', 'orders', { spec: {} });
    const crossing = route([{ name: 'orders', namespace: 'api' }]);
    const refused = buildTopology(inputOf(other, gateway, crossing));
    expect(refused.nodes.find((n) => n.id === 'httproute/shop/web')?.data.problems).toEqual([
      'no ReferenceGrant in api lets it send traffic to Service api/orders',
    ]);
    const grant = object('gateway.networking.k8s.io/v1beta1', 'ReferenceGrant', 'api', 'shop-routes', {
      spec: {
        from: [{ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', namespace: 'shop' }],
        to: [{ group: '', kind: 'Service' }],
      },
    });
    const granted = buildTopology(inputOf(other, gateway, crossing, grant));
    expect(granted.nodes.find((n) => n.id === 'httproute/shop/web')?.data.problems).toBeUndefined();
    expect(edgeLines(granted.edges)).toContain(
      'referencegrant.gateway.networking.k8s.io/api/shop-routes -configures-> httproute/shop/web',
    );
  });

  it('says nothing of a backend whose kind it was not given', () => {
    const t = buildTopology(inputOf(gateway, route([{ name: 'web' }])));
    expect(t.nodes.map((n) => n.id).sort()).toEqual(['gateway/infra/edge', 'httproute/shop/web']);
  });
});

describe('cert-manager', () => {
  const cm = 'cert-manager.io/v1';
  const issuer = object(cm, 'ClusterIssuer', undefined, 'letsencrypt', { spec: { acme: {} } });
  const certificate = object(cm, 'Certificate', 'shop', 'web-tls', {
    spec: {
      secretName: 'web-tls',
      issuerRef: { name: 'letsencrypt', kind: 'ClusterIssuer' },
      dnsNames: ['shop.example'],
    },
  });
  const secret = object('v1', 'Secret', 'shop', 'web-tls', { type: 'kubernetes.io/tls' } as never);
  const request = object(cm, 'CertificateRequest', 'shop', 'web-tls-1', {
    metadata: { ownerReferences: ownedBy(certificate) },
  });
  const order = object('acme.cert-manager.io/v1', 'Order', 'shop', 'web-tls-1-1', {
    metadata: { ownerReferences: ownedBy(request) },
    status: { state: 'pending' },
  });
  const challenge = object('acme.cert-manager.io/v1', 'Challenge', 'shop', 'web-tls-1-1-0', {
    metadata: { ownerReferences: ownedBy(order) },
    spec: { type: 'HTTP-01' },
  });
  const ingress = object('networking.k8s.io/v1', 'Ingress', 'shop', 'web', {
    metadata: { annotations: { 'cert-manager.io/cluster-issuer': 'letsencrypt' } },
    spec: { tls: [{ secretName: 'web-tls' }] },
  });

  it('draws Certificate → ClusterIssuer and Secret, its request, order and challenge, and the Ingress it serves', () => {
    const input = inputOf(issuer, certificate, secret, request, order, challenge, ingress);
    const t = buildTopology(input, { ...defaultTopologyOptions, certificates: true });
    expect(edgeLines(t.edges)).toEqual([
      'certificate.cert-manager.io/shop/web-tls -manages-> certificaterequest.cert-manager.io/shop/web-tls-1',
      'certificate.cert-manager.io/shop/web-tls -manages-> secret/shop/web-tls',
      'certificate.cert-manager.io/shop/web-tls -uses-> clusterissuer.cert-manager.io/letsencrypt',
      'certificaterequest.cert-manager.io/shop/web-tls-1 -manages-> order.acme.cert-manager.io/shop/web-tls-1-1',
      'ingress/shop/web -manages-> certificate.cert-manager.io/shop/web-tls',
      'order.acme.cert-manager.io/shop/web-tls-1-1 -manages-> challenge.acme.cert-manager.io/shop/web-tls-1-1-0',
    ]);
    expect(t.nodes.find((n) => n.kind === 'Certificate')?.data).toMatchObject({
      secretName: 'web-tls',
      dnsNames: ['shop.example'],
    });
  });

  it('leaves the Secret out unless the caller may read Secrets', () => {
    const t = buildTopology(inputOf(issuer, certificate, secret));
    expect(t.nodes.map((n) => n.kind).sort()).toEqual(['Certificate', 'ClusterIssuer']);
  });

  it('flags a Certificate whose issuer does not exist', () => {
    const t = buildTopology({ ...inputOf(certificate), 'ClusterIssuer.cert-manager.io': [] });
    expect(t.nodes.find((n) => n.id === 'clusterissuer.cert-manager.io/letsencrypt')).toMatchObject({
      kind: 'ClusterIssuer',
      group: 'cert-manager.io',
      data: { missing: true },
    });
    expect(t.nodes.find((n) => n.kind === 'Certificate')?.data.problems).toEqual([
      'ClusterIssuer letsencrypt does not exist',
    ]);
  });

  it('draws a cluster-scoped issuer in a namespace graph only as what a Certificate names', () => {
    const unused = object(cm, 'ClusterIssuer', undefined, 'unused', { spec: { ca: {} } });
    const t = buildTopology(inputOf(issuer, unused, certificate), {
      ...defaultTopologyOptions,
      namespaces: ['shop'],
    });
    expect(t.nodes.map((n) => n.id).sort()).toEqual([
      'certificate.cert-manager.io/shop/web-tls',
      'clusterissuer.cert-manager.io/letsencrypt',
    ]);
  });
});
