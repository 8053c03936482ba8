import type { KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import {
  fromApplication,
  fromCrd,
  fromFlux,
  fromRelease,
  fromWorkload,
  splitChartLabel,
} from './contributors.ts';
import { mergePackages } from './merge.ts';

const secret: KubeObject = {
  kind: 'Secret',
  metadata: { namespace: 'shop', name: 'sh.helm.release.v1.web.v3' },
};
const release = fromRelease(
  {
    name: 'web',
    namespace: 'shop',
    version: 3,
    info: { status: 'deployed' },
    chart: { metadata: { name: 'nginx', version: '18.2.0', appVersion: '1.27.3' } },
  },
  secret,
);
const deployment = (health: 'ready' | 'down'): KubeObject => ({
  kind: 'Deployment',
  metadata: {
    namespace: 'shop',
    name: 'web',
    labels: { 'helm.sh/chart': 'nginx-18.1.0', 'app.kubernetes.io/instance': 'web' },
    annotations: { 'meta.helm.sh/release-name': 'web', 'meta.helm.sh/release-namespace': 'shop' },
  },
  spec: { replicas: 2 },
  status: { readyReplicas: health === 'ready' ? 2 : 0 },
});

describe('splitChartLabel', () => {
  it.each([
    ['nginx-18.2.0', { chart: 'nginx', version: '18.2.0' }],
    ['prometheus-node-exporter-4.39.0', { chart: 'prometheus-node-exporter', version: '4.39.0' }],
    ['cert-manager-v1.16.2', { chart: 'cert-manager', version: 'v1.16.2' }],
    ['my-chart-1.0.0-rc.1', { chart: 'my-chart', version: '1.0.0-rc.1' }],
    ['no-version', { chart: 'no-version' }],
  ])('%s', (label, parts) => {
    expect(splitChartLabel(label)).toEqual(parts);
  });
});

describe('mergePackages', () => {
  it('merges a release with the workloads it labelled; Helm has the last word on the version', () => {
    const rows = mergePackages([fromWorkload(deployment('ready')) ?? release, release]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      chart: 'nginx',
      namespace: 'shop',
      releaseName: 'web',
      version: '18.2.0',
      appVersion: '1.27.3',
      health: 'healthy',
      sources: ['helm', 'labels'],
    });
    expect(rows[0]?.contributors.map((c) => c.object.kind)).toEqual(['Secret', 'Deployment']);
  });

  it('takes the worst health of its contributors', () => {
    const [row] = mergePackages([release, fromWorkload(deployment('down')) ?? release]);
    expect(row?.health).toBe('unhealthy');
  });

  it('keeps two releases of one chart apart and joins CRDs to every row of their chart', () => {
    const other = { ...release, releaseNamespace: 'blog', object: { ...release.object, namespace: 'blog' } };
    const crd = fromCrd({
      kind: 'CustomResourceDefinition',
      metadata: { name: 'servers.nginx.example', labels: { 'helm.sh/chart': 'nginx-18.2.0' } },
      spec: { versions: [{ name: 'v1' }] },
      status: { conditions: [{ type: 'Established', status: 'True' }] },
    });
    const rows = mergePackages([release, other, crd ?? release]);
    expect(rows.map((r) => [r.namespace, r.sources])).toEqual([
      ['blog', ['helm', 'crds']],
      ['shop', ['helm', 'crds']],
    ]);
  });

  it('names CRD-only packages by the chart their group is known for, telling Argo CD from Argo Rollouts', () => {
    const crd = (name: string) =>
      fromCrd({
        kind: 'CustomResourceDefinition',
        metadata: { name },
        spec: { versions: [{ name: 'v1alpha1' }] },
        status: { conditions: [{ type: 'Established', status: 'True' }] },
      });
    const rows = mergePackages(
      ['applications.argoproj.io', 'rollouts.argoproj.io', 'kustomizations.kustomize.toolkit.fluxcd.io']
        .map(crd)
        .filter((c) => c !== undefined),
    );
    expect(rows.map((r) => [r.chart, r.version, r.sources])).toEqual([
      ['argo-cd', 'v1alpha1', ['crds']],
      ['argo-rollouts', 'v1alpha1', ['crds']],
      ['flux2', 'v1alpha1', ['crds']],
    ]);
    expect(
      fromCrd({ kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' } }),
    ).toBeUndefined();
  });

  it('reads Argo CD Applications and Flux objects with their own health words', () => {
    const app = fromApplication({
      kind: 'Application',
      metadata: { namespace: 'argocd', name: 'analytics' },
      spec: {
        source: { repoURL: 'https://git', targetRevision: 'v0.9.0' },
        destination: { namespace: 'data' },
      },
      status: { health: { status: 'Degraded' } },
    });
    expect(app).toMatchObject({
      chart: 'analytics',
      version: 'v0.9.0',
      health: 'unhealthy',
      releaseNamespace: 'data',
    });
    const helmRelease = fromFlux({
      kind: 'HelmRelease',
      metadata: { namespace: 'flux-system', name: 'podinfo' },
      spec: { targetNamespace: 'ops', chart: { spec: { chart: 'podinfo', version: '6.7.1' } } },
      status: { conditions: [{ type: 'Ready', status: 'False' }] },
    });
    expect(helmRelease).toMatchObject({
      chart: 'podinfo',
      version: '6.7.1',
      health: 'unhealthy',
      releaseName: 'podinfo',
      releaseNamespace: 'ops',
    });
    const [row] = mergePackages([
      helmRelease,
      { ...release, chart: 'podinfo', releaseName: 'podinfo', releaseNamespace: 'ops' },
    ]);
    expect(row?.sources).toEqual(['helm', 'flux']);
  });
});
