import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';

interface Row {
  chart: string;
  namespace?: string;
  releaseName?: string;
  version?: string;
  appVersion?: string;
  health: string;
  sources: string[];
  contributors: { source: string; object: { kind: string; namespace?: string; name: string } }[];
}
interface Answer {
  packages: Row[];
  total: number;
  loading: string[];
}

let agent: TestAgent;
let restricted: TestAgent;
beforeAll(async () => {
  [agent, restricted] = await Promise.all([startTestAgent(), startTestAgent({ identity: 'restricted' })]);
});
afterAll(async () => {
  await Promise.all([agent?.close(), restricted?.close()]);
});

const row = (answer: Answer, chart: string, namespace?: string) =>
  answer.packages.find((p) => p.chart === chart && (namespace === undefined || p.namespace === namespace));

describe('GET /api/packages', () => {
  it('lists the seeded Helm release, the labelled workload and the Argo CD and Flux objects with their sources', async () => {
    const answer = await agent.json<Answer>('/api/packages');
    expect(answer.loading).toEqual([]);
    expect(row(answer, 'billing', 'demo-billing')).toMatchObject({
      releaseName: 'billing',
      version: '1.2.0',
      appVersion: '3.1.0',
      health: 'healthy',
      sources: ['helm', 'labels'],
    });
    expect(row(answer, 'billing')?.contributors.map((c) => c.object.kind)).toEqual(['Secret', 'Deployment']);
    expect(row(answer, 'prometheus-node-exporter')).toMatchObject({
      namespace: 'demo-ops',
      releaseName: 'node-exporter',
      version: '4.39.0',
      appVersion: '1.8.2',
      sources: ['labels'],
      contributors: [
        expect.objectContaining({
          object: { kind: 'DaemonSet', namespace: 'demo-ops', name: 'node-exporter' },
        }),
      ],
    });
    expect(row(answer, 'storefront')).toMatchObject({
      namespace: 'demo-shop',
      health: 'healthy',
      sources: ['argocd'],
    });
    expect(row(answer, 'analytics')).toMatchObject({
      version: 'v0.9.0',
      health: 'unhealthy',
      sources: ['argocd'],
    });
    expect(row(answer, 'podinfo')).toMatchObject({
      namespace: 'demo-ops',
      version: '6.7.1',
      health: 'unhealthy',
      sources: ['flux'],
    });
    expect(row(answer, 'platform-apps')).toMatchObject({
      namespace: 'demo-ops',
      health: 'healthy',
      sources: ['flux'],
    });
    for (const chart of ['argo-cd', 'argo-rollouts', 'flux2']) {
      expect(row(answer, chart), chart).toMatchObject({ sources: ['crds'], health: 'healthy' });
    }
    expect(answer.packages.map((p) => p.chart)).toEqual([...answer.packages.map((p) => p.chart)].sort());
    expect(answer.total).toBe(answer.packages.length);
  });

  it('filters by namespace, source and health', async () => {
    const ops = await agent.json<Answer>('/api/packages?namespace=demo-ops');
    expect(ops.packages.map((p) => p.chart).sort()).toEqual([
      'platform-apps',
      'podinfo',
      'prometheus-node-exporter',
    ]);
    const flux = await agent.json<Answer>('/api/packages?source=flux');
    // flux2 itself shows through its CRDs only: no Flux object installs Flux here. flux-demo's billing is the
    // release the real helm-controller installed. Other files add Flux objects meanwhile: only the seeded
    // namespaces are this test's.
    const seededFlux = flux.packages.filter((p) => p.namespace === 'demo-ops' || p.namespace === 'flux-demo');
    expect(seededFlux.map((p) => `${p.namespace}/${p.chart}`)).toEqual([
      'flux-demo/billing',
      'demo-ops/platform-apps',
      'demo-ops/podinfo',
    ]);
    const broken = await agent.json<Answer>('/api/packages?health=unhealthy');
    expect(broken.packages.map((p) => p.chart)).toEqual(expect.arrayContaining(['analytics', 'podinfo']));
    expect(broken.packages.every((p) => p.health === 'unhealthy')).toBe(true);
  });

  it('answers 400 naming a bad filter', async () => {
    for (const query of ['source=git', 'health=sick', 'namespace=Bad_NS', 'chart=x']) {
      const res = await agent.request(`/api/packages?${query}`);
      expect(res.status, query).toBe(400);
      expect(await res.json(), query).toMatchObject({ code: 'invalid_request' });
    }
  });

  it('shows an identity that may list nothing no packages, and no error', async () => {
    const answer = await restricted.json<Answer>('/api/packages');
    expect(answer.packages).toEqual([]);
  });
});
