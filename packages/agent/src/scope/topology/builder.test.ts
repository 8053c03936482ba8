import type { KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import { buildTopology, defaultTopologyOptions } from './builder.ts';

const pods = (app: string, count: number): KubeObject[] =>
  Array.from({ length: count }, (_, i) => ({
    kind: 'Pod',
    metadata: {
      namespace: 'jobs',
      name: `${app}-${i}`,
      uid: `${app}-${i}`,
      labels: { app, index: String(i) },
    },
    spec: { containers: [{ name: 'c', image: 'busybox' }] },
    status: { phase: 'Running' },
  }));

describe('pod groups', () => {
  const input = { Pod: [...pods('small', 6), ...pods('big', 501)] };

  it('groups pods without an owner by app, with only the labels they all share', () => {
    const t = buildTopology(input);
    expect(t.nodes.map((n) => [n.id, n.data.count, n.data.expandable])).toEqual([
      ['podgroup/jobs/app-small', 6, true],
      ['podgroup/jobs/app-big', 501, false],
    ]);
  });

  it('expands a group on request, but keeps one of more than 500 pods whole', () => {
    const t = buildTopology(input, {
      ...defaultTopologyOptions,
      expand: ['podgroup/jobs/app-small', 'podgroup/jobs/app-big'],
    });
    expect(t.nodes.filter((n) => n.kind === 'Pod')).toHaveLength(6);
    expect(t.nodes.filter((n) => n.kind === 'PodGroup').map((n) => n.id)).toEqual(['podgroup/jobs/app-big']);
  });
});

describe('GitOps joins', () => {
  const object = (
    kind: string,
    namespace: string,
    name: string,
    extra: Partial<KubeObject> = {},
  ): KubeObject => ({
    kind,
    ...extra,
    metadata: { namespace, name, uid: `${kind}/${namespace}/${name}`, ...extra.metadata },
  });
  const fluxLabels = (tool: 'helm' | 'kustomize', name: string) => ({
    labels: {
      [`${tool}.toolkit.fluxcd.io/name`]: name,
      [`${tool}.toolkit.fluxcd.io/namespace`]: 'flux-system',
    },
  });
  const input = {
    Application: [
      object('Application', 'argocd', 'shop', {
        status: {
          health: { status: 'Degraded' },
          sync: { status: 'OutOfSync' },
          resources: [
            { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'web' },
            { kind: 'ConfigMap', namespace: 'shop', name: 'unread' },
            { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'gone' },
          ],
        },
      }),
    ],
    Kustomization: [
      object('Kustomization', 'flux-system', 'infra', {
        status: { inventory: { entries: [{ id: 'infra_proxy_apps_Deployment', v: 'v1' }] } },
      }),
    ],
    HelmRelease: [object('HelmRelease', 'flux-system', 'billing')],
    Deployment: [
      object('Deployment', 'shop', 'web'),
      object('Deployment', 'infra', 'proxy'),
      object('Deployment', 'billing', 'billing', { metadata: fluxLabels('helm', 'billing') }),
    ],
    Service: [object('Service', 'billing', 'billing', { metadata: fluxLabels('helm', 'billing') })],
    ConfigMap: [object('ConfigMap', 'shop', 'unread')],
    Secret: [object('Secret', 'billing', 'billing-db', { metadata: fluxLabels('helm', 'billing') })],
  };
  const managed = (t: ReturnType<typeof buildTopology>) =>
    t.edges
      .filter((e) => e.source.startsWith('application') || e.source.includes('/flux-system/'))
      .map((e) => e.id);

  it('links an Application to its status.resources, a Kustomization to its inventory, a HelmRelease to its labelled objects', () => {
    const t = buildTopology(input);
    expect(managed(t).sort()).toEqual(
      [
        'application/argocd/shop-manages-deployment/shop/web',
        'application/argocd/shop-manages-configmap/shop/unread',
        'kustomization/flux-system/infra-manages-deployment/infra/proxy',
        'helmrelease/flux-system/billing-manages-deployment/billing/billing',
        'helmrelease/flux-system/billing-manages-service/billing/billing',
      ].sort(),
    );
    expect(t.nodes.find((n) => n.id === 'application/argocd/shop')).toMatchObject({
      status: 'unhealthy',
      data: { sync: 'OutOfSync', health: 'Degraded' },
    });
  });

  it('shows the Secrets a release applied only when Secrets are asked for', () => {
    const t = buildTopology(input, { ...defaultTopologyOptions, includeSecrets: true });
    expect(managed(t)).toContain('helmrelease/flux-system/billing-manages-secret/billing/billing-db');
  });
});
