import { argoApplication, identities, testCluster, waitUntil } from '@binnacle/testkit';
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { agentsAndNamespace } from '../../testing/index.ts';

const cluster = testCluster();
const custom = cluster.kubeConfig('admin').makeApiClient(CustomObjectsApi);
const argo = { group: 'argoproj.io', version: 'v1alpha1', plural: 'applications' };
const fixture = agentsAndNamespace('gitops');

type Application = {
  metadata: { annotations?: Record<string, string>; finalizers?: string[] };
  operation?: unknown;
  spec: { syncPolicy?: { automated?: Record<string, unknown> } };
  status?: { operationState?: { phase: string } | null };
};

async function createApplication(name: string, extra: Record<string, unknown> = {}): Promise<void> {
  await custom.createNamespacedCustomObject({
    ...argo,
    namespace: fixture.ns.name,
    body: { ...argoApplication(name, fixture.ns.name), ...extra },
  });
}
const readApplication = async (name: string) =>
  (await custom.getNamespacedCustomObject({ ...argo, namespace: fixture.ns.name, name })) as Application;
const act = (path: string, body?: unknown) => fixture.agent.post(path, body);
const appAction = (name: string, action: string, body?: unknown) =>
  act(`/api/gitops-a/applications/${fixture.ns.name}/${name}/${action}`, body);

describe('Argo CD actions: the object changes of its API', () => {
  it('sync writes the whole operation: revision, options, strategy, resources, initiator', async () => {
    await createApplication('web');
    const res = await appAction('web', 'sync', {
      prune: true,
      applyOnly: true,
      force: true,
      replace: true,
      resources: [{ group: 'apps', kind: 'Deployment', name: 'web', namespace: fixture.ns.name }],
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const app = await readApplication('web');
    expect(app.operation).toEqual({
      initiatedBy: { username: expect.any(String) },
      sync: {
        revision: 'main',
        prune: true,
        syncStrategy: { apply: { force: true } },
        syncOptions: ['Replace=true'],
        resources: [{ group: 'apps', kind: 'Deployment', name: 'web', namespace: fixture.ns.name }],
      },
    });
    // Another sync while this operation is there: 409, as Argo CD's API refuses it.
    const again = await appAction('web', 'sync');
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({
      code: 'conflict',
      error: expect.stringContaining('in progress'),
    });
  });

  it('a plain sync is the hook strategy at the target revision; dry-run and server-side apply are options', async () => {
    await createApplication('plain', { automated: false });
    const res = await appAction('plain', 'sync', { dryRun: true, serverSideApply: true, revision: 'v2' });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await readApplication('plain')).operation).toEqual({
      initiatedBy: { username: expect.any(String) },
      sync: {
        revision: 'v2',
        dryRun: true,
        syncStrategy: { hook: {} },
        syncOptions: ['ServerSideApply=true'],
      },
    });
  });

  it('refuses contradicting options and a revision automated sync does not follow (400), names them', async () => {
    await createApplication('strict');
    for (const [body, message] of [
      [{ force: true, serverSideApply: true }, /force and serverSideApply/],
      [{ replace: true, serverSideApply: true }, /replace and serverSideApply/],
      [{ revision: 'v9' }, /automated sync follows main/],
      [{ prune: 'yes' }, /prune/],
    ] as const) {
      const res = await appAction('strict', 'sync', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(message);
    }
    expect((await readApplication('strict')).operation).toBeUndefined();
  });

  it('refresh sets the refresh annotation, normal or hard', async () => {
    await createApplication('fresh');
    expect((await appAction('fresh', 'refresh')).status).toBe(200);
    expect((await readApplication('fresh')).metadata.annotations).toMatchObject({
      'argocd.argoproj.io/refresh': 'normal',
    });
    expect((await appAction('fresh', 'refresh', { hard: true })).status).toBe(200);
    expect((await readApplication('fresh')).metadata.annotations).toMatchObject({
      'argocd.argoproj.io/refresh': 'hard',
    });
  });

  it('terminate marks a running operation Terminating; with none running it is 409', async () => {
    await createApplication('busy');
    expect((await appAction('busy', 'terminate')).status).toBe(409);
    expect((await appAction('busy', 'sync')).status).toBe(200);
    // What the application controller writes once it runs the operation (the CRD requires operation and startedAt).
    const app = await readApplication('busy');
    await custom.patchNamespacedCustomObject({
      ...argo,
      namespace: fixture.ns.name,
      name: 'busy',
      body: [
        {
          op: 'add',
          path: '/status',
          value: {
            operationState: {
              operation: app.operation,
              phase: 'Running',
              message: 'one of 3 tasks',
              startedAt: new Date().toISOString(),
            },
          },
        },
      ],
    });
    const res = await appAction('busy', 'terminate');
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await readApplication('busy')).status?.operationState).toMatchObject({ phase: 'Terminating' });
  });

  it('suspend then resume restores the automated policy; a repeat is 200 with nothing changed', async () => {
    await createApplication('auto');
    const suspend = await appAction('auto', 'suspend');
    expect(await suspend.json()).toMatchObject({ changed: true });
    expect((await readApplication('auto')).spec.syncPolicy?.automated).toEqual({
      prune: true,
      selfHeal: true,
      enabled: false,
    });
    const repeat = await appAction('auto', 'suspend');
    expect(repeat.status).toBe(200);
    expect(await repeat.json()).toMatchObject({
      changed: false,
      message: expect.stringContaining('nothing changed'),
    });
    expect(await (await appAction('auto', 'resume')).json()).toMatchObject({ changed: true });
    expect((await readApplication('auto')).spec.syncPolicy?.automated).toEqual({
      prune: true,
      selfHeal: true,
      enabled: true,
    });
  });

  it('refuses every change to an Application being deleted (409), and a missing one is 404', async () => {
    await createApplication('doomed', {
      metadata: { name: 'doomed', finalizers: ['binnacle.dev/test-hold'] },
    });
    await custom.deleteNamespacedCustomObject({ ...argo, namespace: fixture.ns.name, name: 'doomed' });
    for (const action of ['sync', 'refresh', 'terminate', 'suspend', 'resume']) {
      const res = await appAction('doomed', action);
      expect(res.status, action).toBe(409);
      expect(((await res.json()) as { error: string }).error).toContain('being deleted');
    }
    await custom.patchNamespacedCustomObject({
      ...argo,
      namespace: fixture.ns.name,
      name: 'doomed',
      body: [{ op: 'remove', path: '/metadata/finalizers' }],
    });
    expect((await appAction('nowhere', 'sync')).status).toBe(404);
  });

  it('refuses the restricted identity (403) and changes nothing', async () => {
    await createApplication('guarded');
    const before = await readApplication('guarded');
    for (const action of ['sync', 'refresh', 'terminate', 'suspend', 'resume']) {
      const res = await fixture.restricted.post(
        `/api/gitops-a/applications/${fixture.ns.name}/guarded/${action}`,
      );
      expect(res.status, action).toBe(403);
      expect(((await res.json()) as { error: string }).error).toContain(identities.restricted.user);
    }
    expect(await readApplication('guarded')).toEqual(before);
  });

  it('records each action in the timeline with the caller as its author', async () => {
    const { events } = await fixture.agent.json<{
      events: { reason: string; name: string; actor?: { user: string } }[];
    }>(`/api/changes?namespace=${fixture.ns.name}&kind=Application&preset=all&limit=500`);
    const reasons = events.filter((e) => e.actor?.user === identities.admin.user).map((e) => e.reason);
    expect(reasons).toEqual(expect.arrayContaining(['Sync', 'Refresh', 'Terminate', 'Suspend', 'Resume']));
  });
});

describe('read views', () => {
  it('answers 403 for one object of a kind the agent may not list, never 503 "still loading" for good', async () => {
    const paths = [
      '/api/gitops-a/applications/argocd/storefront',
      '/api/gitops-b/GitRepository/flux-system/platform',
    ];
    for (const path of paths) {
      await waitUntil(
        `${path} to stop loading`,
        async () => (await fixture.restricted.request(path)).status !== 503,
        {
          timeoutMs: 15_000,
          intervalMs: 200,
        },
      );
      const res = await fixture.restricted.request(path);
      expect(res.status, path).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe('forbidden');
    }
  });

  it('lists the seeded Applications and Flux objects with their state', async () => {
    const overview = await fixture.agent.json<{
      applications: { namespace: string; name: string; sync: string; health: string; automated: unknown }[];
      flux: { kind: string; namespace: string; name: string; ready: string }[];
    }>('/api/gitops?namespaces=argocd,flux-system');
    expect(overview.applications).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          namespace: 'argocd',
          name: 'storefront',
          sync: 'Synced',
          health: 'Healthy',
          automated: { enabled: true, prune: true, selfHeal: true },
        }),
        expect.objectContaining({
          namespace: 'argocd',
          name: 'analytics',
          sync: 'OutOfSync',
          health: 'Degraded',
        }),
      ]),
    );
    expect(overview.flux).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'GitRepository',
          namespace: 'flux-system',
          name: 'platform',
          ready: 'True',
        }),
      ]),
    );
  });

  it("shows an Application's managed objects with Argo CD's state and the live one; drift is what is OutOfSync", async () => {
    await createApplication('managed');
    await cluster
      .kubeConfig('admin')
      .makeApiClient(CoreV1Api)
      .createNamespacedConfigMap({
        namespace: fixture.ns.name,
        body: { metadata: { name: 'settings' } },
      });
    await custom.patchNamespacedCustomObject({
      ...argo,
      namespace: fixture.ns.name,
      name: 'managed',
      body: [
        {
          op: 'add',
          path: '/status',
          value: {
            sync: { status: 'OutOfSync' },
            health: { status: 'Missing' },
            resources: [
              {
                version: 'v1',
                kind: 'ConfigMap',
                namespace: fixture.ns.name,
                name: 'settings',
                status: 'Synced',
              },
              {
                group: 'apps',
                version: 'v1',
                kind: 'Deployment',
                namespace: fixture.ns.name,
                name: 'web',
                status: 'OutOfSync',
                health: { status: 'Missing' },
              },
            ],
          },
        },
      ],
    });
    await waitUntil(
      'the Application in the cache with its status',
      async () => {
        const res = await fixture.agent.request(`/api/gitops-a/applications/${fixture.ns.name}/managed`);
        return res.status === 200 && ((await res.json()) as { resources: unknown[] }).resources.length === 2;
      },
      { timeoutMs: 10_000 },
    );
    const detail = await fixture.agent.json<{ resources: unknown[]; drift: unknown[]; outOfSync: number }>(
      `/api/gitops-a/applications/${fixture.ns.name}/managed`,
    );
    expect(detail.resources).toEqual([
      {
        group: '',
        kind: 'ConfigMap',
        namespace: fixture.ns.name,
        name: 'settings',
        sync: 'Synced',
        live: 'healthy',
      },
      {
        group: 'apps',
        kind: 'Deployment',
        namespace: fixture.ns.name,
        name: 'web',
        sync: 'OutOfSync',
        toolHealth: 'Missing',
        live: 'missing',
      },
    ]);
    expect(detail.drift).toHaveLength(1);
    expect(detail.outOfSync).toBe(1);
    expect(
      (await fixture.agent.request(`/api/gitops-a/applications/${fixture.ns.name}/nowhere`)).status,
    ).toBe(404);
  });
});

describe('Flux actions: the flux CLI semantics', () => {
  const flux = (kind: string, name: string, action: string) =>
    act(`/api/gitops-b/${kind}/flux-system/${name}/${action}`);

  it('refuses an unknown kind with 400 listing the allowed ones, and a missing object with 404', async () => {
    const res = await flux('Secret', 'x', 'reconcile');
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; code: string };
    expect(body.code).toBe('unknown_kind');
    expect(body.error).toContain(
      'GitRepository, OCIRepository, HelmRepository, Bucket, Kustomization, HelmRelease',
    );
    expect((await flux('GitRepository', 'nowhere', 'reconcile')).status).toBe(404);
  });
});
