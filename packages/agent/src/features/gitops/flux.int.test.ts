import {
  type FluxObject,
  fluxDemo,
  fluxGenerationObserved,
  fluxGroups,
  fluxReady,
  fluxWatchLabel,
  identities,
  installFluxDemo,
  testCluster,
  waitUntil,
} from '@binnacle/testkit';
import { CoreV1Api, CustomObjectsApi, Watch } from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { agentsAndNamespace } from '../../testing/index.ts';

// The agent's Flux actions against the real source- and helm-controller of the local control plane, on a
// HelmRelease of this file's own (the seeded one stays at revision 1 for the other tests).
const cluster = testCluster();
const kc = cluster.kubeConfig('admin');
const core = kc.makeApiClient(CoreV1Api);
const custom = kc.makeApiClient(CustomObjectsApi);
const release = fluxDemo.helmRelease;
const plural = {
  HelmRelease: { ...fluxGroups.helm, plural: 'helmreleases' },
  HelmRepository: { ...fluxGroups.source, plural: 'helmrepositories' },
  HelmChart: { ...fluxGroups.source, plural: 'helmcharts' },
} as const;
type Kind = keyof typeof plural;

const fixture = agentsAndNamespace('gitops-flux');

beforeAll(async () => {
  await installFluxDemo(kc, cluster.state.chartSources.http, fixture.ns.name);
});

const read = async (kind: Kind, name: string, namespace = fixture.ns.name) =>
  (await custom.getNamespacedCustomObject({ ...plural[kind], namespace, name })) as FluxObject & {
    spec: { suspend?: boolean };
  };
/** What an action writes: the spec (its generation) and the annotations; the controller writes only the status. */
const written = (object: FluxObject) => ({
  generation: object.metadata.generation,
  annotations: object.metadata.annotations,
});
const act = (action: string, kind = 'helmreleases', name: string = release) =>
  fixture.agent.post(`/api/gitops-b/${kind}/${fixture.ns.name}/${name}/${action}`);

async function revisions(): Promise<number[]> {
  const { items } = await core.listNamespacedSecret({
    namespace: fixture.ns.name,
    labelSelector: `owner=helm,name=${release}`,
  });
  return items.map((secret) => Number(secret.metadata?.labels?.version)).sort((a, b) => a - b);
}

const handled = (kind: Kind, name: string, at: string) =>
  waitUntil(
    `${kind} ${fixture.ns.name}/${name} handling the reconcile request of ${at}`,
    async () => {
      const seen = (await read(kind, name)).status?.lastHandledReconcileAt;
      if (seen !== at) throw new Error(`lastHandledReconcileAt is ${seen}`);
      return true;
    },
    { timeoutMs: 30_000, intervalMs: 250 },
  );

describe('Flux actions with the real controllers', () => {
  it('reconcile makes helm-controller reconcile: lastHandledReconcileAt is the requested time', async () => {
    const res = await act('reconcile');
    expect(res.status, await res.clone().text()).toBe(200);
    const answer = (await res.json()) as { requestedAt: string; kind: string };
    expect(answer.kind).toBe('HelmRelease');
    expect((await read('HelmRelease', release)).metadata.annotations).toMatchObject({
      'reconcile.fluxcd.io/requestedAt': answer.requestedAt,
    });
    await handled('HelmRelease', release, answer.requestedAt);
  });

  it('suspend holds a changed value, a second suspend changes nothing, resume applies it', async () => {
    expect(await revisions()).toEqual([1]);
    const suspended = await act('suspend');
    expect(suspended.status).toBe(200);
    expect(await suspended.json()).toMatchObject({ changed: true, suspended: true });
    const before = await read('HelmRelease', release);
    expect(before.spec.suspend).toBe(true);

    const again = await act('suspend');
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({
      changed: false,
      message: expect.stringContaining('already suspended: nothing changed'),
    });
    expect(written(await read('HelmRelease', release))).toEqual(written(before));

    // A reconcile asked of a suspended release would be ignored by helm-controller: refused, as the flux CLI does.
    const refused = await act('reconcile');
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: string }).error).toContain('is suspended');

    const changed = (await custom.patchNamespacedCustomObject({
      ...plural.HelmRelease,
      namespace: fixture.ns.name,
      name: release,
      body: [{ op: 'add', path: '/spec/values', value: { config: { currency: 'USD' } } }],
    })) as FluxObject;
    await fluxGenerationObserved(
      `the suspended HelmRelease ${release}`,
      () => read('HelmRelease', release),
      changed.metadata.generation,
    );
    expect(await revisions()).toEqual([1]);

    const resumed = await act('resume');
    expect(resumed.status).toBe(200);
    const answer = (await resumed.json()) as { requestedAt: string; changed: boolean };
    expect(answer.changed).toBe(true);
    await handled('HelmRelease', release, answer.requestedAt);
    await waitUntil(
      'revision 2 after resuming',
      async () => {
        const seen = await revisions();
        if (seen.at(-1) !== 2) throw new Error(`revisions ${seen.join(', ')}`);
        return true;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    const config = await core.readNamespacedConfigMap({
      namespace: fixture.ns.name,
      name: `${release}-config`,
    });
    expect(config.data?.CURRENCY).toBe('USD');
  });

  it('sync-with-source has the HelmRepository, then the HelmChart handled before the HelmRelease is asked', async () => {
    await waitUntil('the release Ready again', async () => fluxReady(await read('HelmRelease', release)), {
      timeoutMs: 60_000,
      intervalMs: 250,
    });
    // Every change of the three objects as the API server sends them, in the order it sends them.
    const seen: string[] = [];
    const last = new Map<string, string | undefined>();
    const added = new Set<Kind>();
    const watches = await Promise.all(
      (['HelmRepository', 'HelmChart', 'HelmRelease'] as const).map((kind) =>
        new Watch(kc).watch(
          `/apis/${plural[kind].group}/${plural[kind].version}/namespaces/${fixture.ns.name}/${plural[kind].plural}`,
          {},
          (type, object: FluxObject) => {
            if (type === 'ADDED') added.add(kind);
            const requested = object.metadata.annotations?.['reconcile.fluxcd.io/requestedAt'];
            const handledAt = object.status?.lastHandledReconcileAt;
            for (const [what, value] of [
              ['requested', requested],
              ['handled', handledAt],
            ] as const) {
              const key = `${kind} ${what}`;
              if (value && last.get(key) !== value) seen.push(`${key} ${value}`);
              last.set(key, value);
            }
          },
          () => undefined,
        ),
      ),
    );
    try {
      // Each watch starts with an ADDED event for the one object of its kind here: what they say is old news.
      await waitUntil(
        'the initial ADDED events of the three watches',
        () => Promise.resolve(added.size === 3),
        {
          timeoutMs: 10_000,
          intervalMs: 20,
        },
      );
      seen.length = 0;
      const res = await act('sync-with-source');
      expect(res.status, await res.clone().text()).toBe(200);
      const answer = (await res.json()) as {
        requestedAt: string;
        sources: { kind: string; namespace: string; name: string; requestedAt: string }[];
      };
      expect(answer.sources.map(({ kind, namespace, name }) => ({ kind, namespace, name }))).toEqual([
        { kind: 'HelmRepository', namespace: fixture.ns.name, name: fluxDemo.helmRepository },
        { kind: 'HelmChart', namespace: fixture.ns.name, name: `${fixture.ns.name}-${release}` },
      ]);
      const [repository, chart] = answer.sources.map((source) => source.requestedAt);
      await handled('HelmRelease', release, answer.requestedAt);
      const order = [
        `HelmRepository requested ${repository}`,
        `HelmRepository handled ${repository}`,
        `HelmChart requested ${chart}`,
        `HelmChart handled ${chart}`,
        `HelmRelease requested ${answer.requestedAt}`,
        `HelmRelease handled ${answer.requestedAt}`,
      ];
      // `handled` read the HelmRelease from the API server; the test's own watch may deliver it a moment later.
      await waitUntil(
        "the watch to see the HelmRelease's handled reconcile",
        () => Promise.resolve(seen.includes(order.at(-1) as string)),
        { timeoutMs: 10_000, intervalMs: 20 },
      );
      expect(seen.filter((line) => order.includes(line))).toEqual(order);
    } finally {
      for (const watch of watches) watch.abort();
    }
  });

  it('stops at a source its controller fails to fetch: 502 reconcile_failed quoting it, the release left alone', async () => {
    const namespace = fixture.ns.name;
    const watched = { [fluxWatchLabel.key]: fluxWatchLabel.value };
    await custom.createNamespacedCustomObject({
      ...plural.HelmRepository,
      namespace,
      body: {
        apiVersion: `${fluxGroups.source.group}/${fluxGroups.source.version}`,
        kind: 'HelmRepository',
        metadata: { name: 'unreachable', labels: watched },
        spec: { interval: '1m', url: 'http://127.0.0.1:1/charts', timeout: '5s' },
      },
    });
    await custom.createNamespacedCustomObject({
      ...plural.HelmRelease,
      namespace,
      body: {
        apiVersion: `${fluxGroups.helm.group}/${fluxGroups.helm.version}`,
        kind: 'HelmRelease',
        metadata: { name: 'stranded', labels: watched },
        spec: {
          interval: '1m',
          chart: {
            spec: { chart: 'billing', sourceRef: { kind: 'HelmRepository', name: 'unreachable' } },
            metadata: { labels: watched },
          },
        },
      },
    });
    // helm-controller makes the HelmChart of the chain on its first reconcile.
    await waitUntil(
      'the HelmChart of the stranded release',
      async () => Boolean(await read('HelmChart', `${namespace}-stranded`)),
      {
        timeoutMs: 30_000,
        intervalMs: 250,
      },
    );
    const before = written(await read('HelmRelease', 'stranded'));
    const res = await act('sync-with-source', 'helmreleases', 'stranded');
    expect(res.status, await res.clone().text()).toBe(502);
    const body = (await res.json()) as { code: string; error: string };
    expect(body.code).toBe('reconcile_failed');
    expect(body.error).toContain(`HelmRepository ${namespace}/unreachable failed to reconcile`);
    expect(written(await read('HelmRelease', 'stranded'))).toEqual(before);
  });

  it('refuses sync-with-source on a source (400) and while a source in the chain is suspended (409)', async () => {
    expect((await act('sync-with-source', 'helmrepositories', fluxDemo.helmRepository)).status).toBe(400);
    const repository = fluxDemo.helmRepository;
    expect((await act('suspend', 'helmrepositories', repository)).status).toBe(200);
    try {
      const before = (await read('HelmRelease', release)).metadata.annotations;
      const res = await act('sync-with-source');
      expect(res.status).toBe(409);
      expect(((await res.json()) as { error: string }).error).toContain(
        `HelmRepository ${fixture.ns.name}/${repository} is suspended`,
      );
      expect((await read('HelmRelease', release)).metadata.annotations).toEqual(before);
    } finally {
      expect((await act('resume', 'helmrepositories', repository)).status).toBe(200);
    }
  });

  it('refuses the restricted identity (403) and changes nothing', async () => {
    const before = await read('HelmRelease', release);
    for (const action of ['reconcile', 'sync-with-source', 'suspend', 'resume']) {
      const res = await fixture.restricted.post(
        `/api/gitops-b/helmreleases/${fixture.ns.name}/${release}/${action}`,
      );
      expect(res.status, action).toBe(403);
      expect(((await res.json()) as { error: string }).error).toContain(identities.restricted.user);
    }
    expect(written(await read('HelmRelease', release))).toEqual(written(before));
  });

  it('records each action in the timeline with the caller as its author', async () => {
    await waitUntil(
      'the Flux actions in the timeline',
      async () => {
        const { events } = await fixture.agent.json<{
          events: { reason: string; kind: string; actor?: { user: string } }[];
        }>(`/api/changes?namespace=${fixture.ns.name}&preset=all&limit=500`);
        const acted = events.filter((e) => e.actor?.user === identities.admin.user);
        const byKind = (kind: string) => acted.filter((e) => e.kind === kind).map((e) => e.reason);
        expect(byKind('HelmRelease')).toEqual(
          expect.arrayContaining(['Reconcile', 'Suspend', 'Resume', 'SyncWithSource']),
        );
        expect(byKind('HelmRepository')).toEqual(expect.arrayContaining(['Suspend', 'Resume']));
        return true;
      },
      { timeoutMs: 10_000, intervalMs: 250 },
    );
  });
});
