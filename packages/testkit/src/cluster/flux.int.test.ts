import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testCluster } from '../test-cluster.ts';
import { fluxWatchLabel } from './components.ts';
import { type FluxObject, fluxGenerationObserved, fluxGroups, fluxReady, installFluxDemo } from './flux.ts';
import { seeded } from './seed.ts';
import { waitUntil } from './wait.ts';

const cluster = testCluster();
const kc = cluster.kubeConfig('admin');
const core = kc.makeApiClient(CoreV1Api);
const custom = kc.makeApiClient(CustomObjectsApi);
const { namespace, helmRepository, helmRelease } = seeded.flux;

const kinds = {
  HelmRelease: { ...fluxGroups.helm, plural: 'helmreleases' },
  HelmRepository: { ...fluxGroups.source, plural: 'helmrepositories' },
} as const;
type Kind = keyof typeof kinds;

const read = async (kind: Kind, ns: string, name: string) =>
  (await custom.getNamespacedCustomObject({ ...kinds[kind], namespace: ns, name })) as FluxObject;

/** A JSON patch of the object's annotations or spec fields, as `flux reconcile` / `flux suspend` make it. */
async function change(kind: Kind, ns: string, name: string, ops: { path: string; value: unknown }[]) {
  return (await custom.patchNamespacedCustomObject({
    ...kinds[kind],
    namespace: ns,
    name,
    body: ops.map((op) => ({ op: 'add', ...op })),
  })) as FluxObject;
}

async function requestReconcile(kind: Kind, ns: string, name: string): Promise<string> {
  const at = new Date().toISOString();
  const { metadata } = await read(kind, ns, name);
  await change(kind, ns, name, [
    {
      path: '/metadata/annotations',
      value: { ...metadata.annotations, 'reconcile.fluxcd.io/requestedAt': at },
    },
  ]);
  return at;
}

async function handled(kind: Kind, ns: string, name: string, at: string): Promise<void> {
  await waitUntil(
    `${kind} ${ns}/${name} handling the reconcile request ${at}`,
    async () => {
      const seen = (await read(kind, ns, name)).status?.lastHandledReconcileAt;
      if (seen !== at) throw new Error(`lastHandledReconcileAt is ${seen}`);
      return true;
    },
    { timeoutMs: 30_000, intervalMs: 250 },
  );
}

/** The revisions of a Helm release, from the Secrets Helm keeps them in. */
async function revisions(ns: string, release: string): Promise<number[]> {
  const { items } = await core.listNamespacedSecret({
    namespace: ns,
    labelSelector: `owner=helm,name=${release}`,
  });
  return items.map((secret) => Number(secret.metadata?.labels?.version)).sort((a, b) => a - b);
}

async function ready(kind: Kind, ns: string, name: string): Promise<void> {
  await waitUntil(`${kind} ${ns}/${name} Ready`, async () => fluxReady(await read(kind, ns, name)), {
    timeoutMs: 90_000,
    intervalMs: 250,
  });
}

describe('the seeded Flux reconcile', () => {
  it('has helm-controller install the HelmRelease from the local chart repository', async () => {
    expect(fluxReady(await read('HelmRepository', namespace, helmRepository))).toBe(true);
    const release = await read('HelmRelease', namespace, helmRelease);
    expect(fluxReady(release)).toBe(true);
    const secret = await core.readNamespacedSecret({
      namespace,
      name: `sh.helm.release.v1.${helmRelease}.v1`,
    });
    expect(secret.type).toBe('helm.sh/release.v1');
    expect(secret.metadata?.labels).toMatchObject({ owner: 'helm', name: helmRelease, version: '1' });
  });

  it('handles reconcile.fluxcd.io/requestedAt on a HelmRelease and on a HelmRepository', async () => {
    const releaseAt = await requestReconcile('HelmRelease', namespace, helmRelease);
    const repositoryAt = await requestReconcile('HelmRepository', namespace, helmRepository);
    await Promise.all([
      handled('HelmRelease', namespace, helmRelease, releaseAt),
      handled('HelmRepository', namespace, helmRepository, repositoryAt),
    ]);
  });

  it('leaves the unlabelled flux-system samples and their statuses alone', async () => {
    const sample = await read('HelmRelease', 'flux-system', 'podinfo');
    expect(sample.metadata).not.toHaveProperty(['labels', fluxWatchLabel.key]);
    expect(sample.status?.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'UpgradeFailed',
    });
    expect(sample.status?.lastHandledReconcileAt).toBeUndefined();
  });
});

describe('suspend', () => {
  let ns: { name: string; remove: () => Promise<void> };
  beforeAll(async () => {
    ns = await cluster.namespace('flux');
    await installFluxDemo(kc, cluster.state.chartSources.http, ns.name);
  });
  afterAll(async () => {
    await ns?.remove();
  });

  it('holds a values change while spec.suspend is true and applies it once resumed', async () => {
    expect(await revisions(ns.name, helmRelease)).toEqual([1]);
    const suspended = await change('HelmRelease', ns.name, helmRelease, [
      { path: '/spec/suspend', value: true },
      { path: '/spec/values', value: { config: { currency: 'USD' } } },
    ]);
    await fluxGenerationObserved(
      `the suspended HelmRelease ${ns.name}/${helmRelease}`,
      () => read('HelmRelease', ns.name, helmRelease),
      suspended.metadata.generation,
    );
    expect(await revisions(ns.name, helmRelease)).toEqual([1]);
    await change('HelmRelease', ns.name, helmRelease, [{ path: '/spec/suspend', value: false }]);
    await requestReconcile('HelmRelease', ns.name, helmRelease);
    await waitUntil(
      'revision 2 after resuming',
      async () => {
        const seen = await revisions(ns.name, helmRelease);
        if (seen.at(-1) !== 2) throw new Error(`revisions ${seen.join(', ')}`);
        return true;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    await ready('HelmRelease', ns.name, helmRelease);
    const config = await core.readNamespacedConfigMap({ namespace: ns.name, name: `${helmRelease}-config` });
    expect(config.data?.CURRENCY).toBe('USD');
  });
});
