import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiServerOnlyUp, identities, testCluster, waitUntil } from '@binnacle/testkit';
import { CustomObjectsApi, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agentsAndNamespace,
  bindInNamespace,
  certificate,
  ecosystemKinds,
  nodeClaim,
  postgresCluster,
  scaledJob,
  scaledObject,
  sendFrom,
  startTestAgent,
  type TestAgent,
  veleroSchedule,
} from '../../testing/index.ts';
import { call, json, mcpClients } from '../../testing/mcp-client.ts';

// The projects' real CRDs are served by the test control plane (test/cluster/build.sh, build_ecosystem); no
// controller of theirs runs there, so these tests read back the object change each CLI would have made.
const cluster = testCluster();
const custom = cluster.kubeConfig('admin').makeApiClient(CustomObjectsApi);
const fixture = agentsAndNamespace('ecosystem');
const connect = mcpClients();

const {
  certificates,
  schedules,
  veleroBackups,
  scaledObjects,
  scaledJobs,
  nodeClaims,
  postgresClusters,
  postgresBackups,
} = ecosystemKinds;

type Kind = (typeof ecosystemKinds)[keyof typeof ecosystemKinds];
interface Obj {
  metadata: {
    name: string;
    uid: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    resourceVersion: string;
  };
  spec?: Record<string, unknown>;
  status?: { conditions?: { type: string; status: string; reason?: string; observedGeneration?: number }[] };
}

const ns = () => fixture.ns.name;
const create = (kind: Kind, body: Record<string, unknown>) =>
  custom.createNamespacedCustomObject({ ...kind, namespace: ns(), body });
const read = async (kind: Kind, name: string) =>
  (await custom.getNamespacedCustomObject({ ...kind, namespace: ns(), name })) as Obj;
const list = async (kind: Kind, labelSelector: string) =>
  ((await custom.listNamespacedCustomObject({ ...kind, namespace: ns(), labelSelector })) as { items: Obj[] })
    .items;
const act = (path: string, body?: unknown) => fixture.agent.post(`/api/ecosystem/${path}`, body);
const answer = async (res: Response) => {
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return JSON.parse(text) as Record<string, unknown> & { message: string };
};

describe('cert-manager renew: as cmctl renew', () => {
  it('a dry run changes nothing; the renewal sets Issuing True, ManuallyTriggered, through the status', async () => {
    await create(certificates, certificate('storefront'));
    await custom.patchNamespacedCustomObjectStatus({
      ...certificates,
      namespace: ns(),
      name: 'storefront',
      body: [
        {
          op: 'add',
          path: '/status',
          value: {
            conditions: [
              {
                type: 'Ready',
                status: 'True',
                reason: 'Ready',
                message: 'up to date',
                lastTransitionTime: '2026-11-01T00:00:00Z',
                observedGeneration: 1,
              },
            ],
          },
        },
      ],
    });
    const before = await read(certificates, 'storefront');
    const dry = await answer(
      await act(`certificates.cert-manager.io/${ns()}/storefront/renew`, { dryRun: true }),
    );
    expect(dry).toMatchObject({ dryRun: true, message: expect.stringContaining('would be requested') });
    expect(await read(certificates, 'storefront')).toEqual(before);

    const done = await answer(await act(`certificates/${ns()}/storefront/renew`));
    expect(done).toMatchObject({ kind: 'Certificate', namespace: ns(), name: 'storefront', dryRun: false });
    const after = await read(certificates, 'storefront');
    expect(after.status?.conditions).toEqual([
      expect.objectContaining({ type: 'Ready', status: 'True' }),
      {
        type: 'Issuing',
        status: 'True',
        reason: 'ManuallyTriggered',
        message: 'Certificate re-issuance manually triggered',
        lastTransitionTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        observedGeneration: 1,
      },
    ]);
    expect(after.spec).toEqual(before.spec);
  });
});

describe('Velero backup now: as velero backup create --from-schedule', () => {
  it("creates a Backup of the Schedule's template, labels and annotations; the dry run creates none", async () => {
    await create(
      schedules,
      veleroSchedule('nightly', ['shop'], {
        extras: { labels: { team: 'platform' }, annotations: { 'example.com/owner': 'sre' } },
      }),
    );
    const selector = 'velero.io/schedule-name=nightly';
    const dry = await answer(await act(`schedules.velero.io/${ns()}/nightly/backup`, { dryRun: true }));
    expect(dry.backup).toMatchObject({ metadata: { name: expect.stringMatching(/^nightly-\d{14}$/) } });
    expect(await list(veleroBackups, selector)).toEqual([]);

    const done = await answer(await act(`schedules/${ns()}/nightly/backup`));
    const [backup, ...more] = await list(veleroBackups, selector);
    expect(more).toEqual([]);
    expect(backup?.metadata.name).toBe((done.backup as Obj).metadata.name);
    expect(backup?.metadata.labels).toEqual({ team: 'platform', 'velero.io/schedule-name': 'nightly' });
    expect(backup?.metadata.annotations).toEqual({ 'example.com/owner': 'sre' });
    expect(backup?.spec).toMatchObject({ includedNamespaces: ['shop'], ttl: '720h0m0s' });
    expect(done.message).toContain(
      `Backup ${ns()}/${backup?.metadata.name} of Schedule ${ns()}/nightly created`,
    );

    const named = await answer(await act(`schedules/${ns()}/nightly/backup`, { name: 'by-hand' }));
    expect((named.backup as Obj).metadata.name).toBe('by-hand');
    const again = await act(`schedules/${ns()}/nightly/backup`, { name: 'by-hand' });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { code: string }).code).toBe('already_exists');
    const filtered = await act(`schedules/${ns()}/nightly/backup`, { method: 'volumeSnapshot' });
    expect(filtered.status).toBe(400);
    expect(((await filtered.json()) as { error: string }).error).toContain("the Schedule's template");
  });
});

describe('KEDA pause and resume: its pause annotations', () => {
  it('pauses at a count, says when nothing changes, resumes by removing both; a dry run changes nothing', async () => {
    await create(scaledObjects, scaledObject('orders'));
    const path = `scaledobjects/${ns()}/orders`;
    const dry = await answer(await act(`${path}/pause`, { replicas: 2, dryRun: true }));
    expect(dry).toMatchObject({ changed: true, paused: true, dryRun: true });
    expect((await read(scaledObjects, 'orders')).metadata.annotations).toBeUndefined();

    expect(await answer(await act(`${path}/pause`, { replicas: 2 }))).toMatchObject({
      changed: true,
      paused: true,
      annotations: { 'autoscaling.keda.sh/paused': 'true', 'autoscaling.keda.sh/paused-replicas': '2' },
    });
    expect((await read(scaledObjects, 'orders')).metadata.annotations).toEqual({
      'autoscaling.keda.sh/paused': 'true',
      'autoscaling.keda.sh/paused-replicas': '2',
    });
    const repeat = await answer(await act(`${path}/pause`, { replicas: 2 }));
    expect(repeat).toMatchObject({ changed: false, message: expect.stringContaining('nothing changed') });

    const resumed = await answer(await act(`${path}/resume`));
    expect(resumed).toMatchObject({ changed: true, paused: false, annotations: {} });
    expect((await read(scaledObjects, 'orders')).metadata.annotations ?? {}).toEqual({});
    expect(await answer(await act(`${path}/resume`))).toMatchObject({ changed: false });
  });

  it('refuses a paused count for a ScaledJob (400)', async () => {
    await create(scaledJobs, scaledJob('reports'));
    const res = await act(`scaledjobs/${ns()}/reports/pause`, { replicas: 1 });
    expect(res.status).toBe(400);
    expect(await answer(await act(`ScaledJob/${ns()}/reports/pause`))).toMatchObject({
      changed: true,
      paused: true,
    });
  });
});

describe('CloudNativePG: as kubectl cnpg backup and restart', () => {
  it('creates a Backup naming the cluster with the flags given, and restarts through restartedAt', async () => {
    await create(postgresClusters, postgresCluster('pg'));
    const dry = await answer(await act(`clusters.postgresql.cnpg.io/${ns()}/pg/backup`, { dryRun: true }));
    expect(dry.backup).toMatchObject({ spec: { cluster: { name: 'pg' } } });
    expect(await list(postgresBackups, 'cnpg.io/cluster=pg')).toEqual([]);
    await answer(await act(`clusters/${ns()}/pg/backup`, { method: 'volumeSnapshot', online: true }));
    const [backup] = await list(postgresBackups, 'cnpg.io/cluster=pg');
    expect(backup?.metadata.name).toMatch(/^pg-\d{14}$/);
    expect(backup?.spec).toMatchObject({ cluster: { name: 'pg' }, method: 'volumeSnapshot', online: true });

    const before = await read(postgresClusters, 'pg');
    await answer(await act(`clusters/${ns()}/pg/restart`, { dryRun: true }));
    expect((await read(postgresClusters, 'pg')).metadata.resourceVersion).toBe(
      before.metadata.resourceVersion,
    );
    const restarted = await answer(await act(`clusters/${ns()}/pg/restart`));
    expect((await read(postgresClusters, 'pg')).metadata.annotations).toEqual({
      'kubectl.kubernetes.io/restartedAt': restarted.restartedAt,
    });
  });
});

describe("CloudNativePG backup options: as the plugin's flags", () => {
  it('takes method, plugin and its parameters, target, online and its configuration; refuses what kubectl cnpg backup refuses (400) and makes nothing', async () => {
    await create(postgresClusters, postgresCluster('pg-options'));
    const path = `clusters/${ns()}/pg-options/backup`;
    const plugin = 'barman-cloud.cloudnative-pg.io';
    const dry = await answer(
      await act(path, {
        dryRun: true,
        method: 'plugin',
        plugin,
        pluginParameters: { barmanObjectName: 'minio-store' },
        target: 'prefer-standby',
        online: true,
        immediateCheckpoint: true,
        waitForArchive: false,
      }),
    );
    // The API server took the whole Backup against the real CRD's schema (a dry run creates it there).
    expect(dry.backup).toMatchObject({
      spec: {
        cluster: { name: 'pg-options' },
        method: 'plugin',
        pluginConfiguration: { name: plugin, parameters: { barmanObjectName: 'minio-store' } },
        target: 'prefer-standby',
        online: true,
        onlineConfiguration: { immediateCheckpoint: true, waitForArchive: false },
      },
    });
    for (const body of [
      { method: 'tape' },
      { target: 'replica' },
      { method: 'plugin' },
      { method: 'volumeSnapshot', plugin },
      { plugin: 'Not A Name' },
      { method: 'barmanObjectStore', pluginParameters: { barmanObjectName: 'minio-store' } },
      { method: 'plugin', plugin, pluginParameters: { 'no spaces': 'x' } },
      { method: 'plugin', plugin, pluginParameters: { a: 'x'.repeat(1025) } },
      {
        method: 'plugin',
        plugin,
        pluginParameters: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`p${i}`, 'x'])),
      },
      { immediateCheckpoint: 'yes' },
    ]) {
      const refused = await act(path, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(await refused.json()).toMatchObject({ code: 'invalid_request', error: expect.any(String) });
    }
    expect(await list(postgresBackups, 'cnpg.io/cluster=pg-options')).toEqual([]);
  });
});

describe('Karpenter disrupt: deleting the NodeClaim', () => {
  const claim = `${Date.now().toString(36)}-claim`;
  it('a dry run keeps it; the disruption deletes it as the caller', async () => {
    await custom.createClusterCustomObject({ ...nodeClaims, body: nodeClaim(claim) });
    expect(await answer(await act(`nodeclaims/_/${claim}/disrupt`, { dryRun: true }))).toMatchObject({
      dryRun: true,
    });
    await custom.getClusterCustomObject({ ...nodeClaims, name: claim });
    expect(await answer(await act(`nodeclaims.karpenter.sh/_/${claim}/disrupt`))).toMatchObject({
      changed: true,
    });
    await waitUntil(
      'the NodeClaim to be gone',
      async () =>
        (await fixture.agent.request(`/api/resources/nodeclaims.karpenter.sh/_/${claim}`)).status === 404,
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    expect((await act(`nodeclaims/_/${claim}/disrupt`)).status).toBe(404);
  });
});

describe('what every action refuses', () => {
  it('a missing object is 404, a kind the action does not take 400, the namespace of a cluster-scoped kind 400', async () => {
    const missing = await act(`certificates/${ns()}/nowhere/renew`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { code: string }).code).toBe('not_found');
    const wrong = await act(`deployments/${ns()}/web/renew`);
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({
      code: 'unknown_kind',
      error: 'renew takes certificates.cert-manager.io (Certificate), not "deployments"',
    });
    expect((await act(`nodeclaims/${ns()}/x/disrupt`)).status).toBe(400);
  });

  it('refuses the restricted identity (403) and changes nothing', async () => {
    await create(certificates, certificate('guarded'));
    await create(scaledObjects, scaledObject('guarded'));
    await create(schedules, veleroSchedule('guarded', ['shop']));
    await create(postgresClusters, postgresCluster('guarded'));
    const before = await Promise.all(
      [certificates, scaledObjects, schedules, postgresClusters].map((k) => read(k, 'guarded')),
    );
    for (const path of [
      `certificates/${ns()}/guarded/renew`,
      `scaledobjects/${ns()}/guarded/pause`,
      `schedules/${ns()}/guarded/backup`,
      `clusters.postgresql.cnpg.io/${ns()}/guarded/backup`,
      `clusters.postgresql.cnpg.io/${ns()}/guarded/restart`,
    ]) {
      const res = await fixture.restricted.post(`/api/ecosystem/${path}`);
      expect(res.status, path).toBe(403);
      expect(((await res.json()) as { error: string }).error).toContain(identities.restricted.user);
    }
    expect(
      await Promise.all(
        [certificates, scaledObjects, schedules, postgresClusters].map((k) => read(k, 'guarded')),
      ),
    ).toEqual(before);
    expect(await list(veleroBackups, 'velero.io/schedule-name=guarded')).toEqual([]);
  });
});

describe('a cluster without the projects', () => {
  it("answers 404 kind_not_served naming the project whose CRDs are not installed, for every action's kinds", async () => {
    // A second, bare control plane: the real API server, without any ecosystem CRD.
    const second = await apiServerOnlyUp(join(await mkdtemp(join(tmpdir(), 'binnacle-eco-')), 'bare'));
    const bare = await startTestAgent({ config: { kubeconfig: second.kubeconfig } }).catch(async (error) => {
      await second.down();
      throw error;
    });
    try {
      for (const [path, integration] of [
        ['certificates/default/tls/renew', 'cert-manager'],
        ['schedules.velero.io/default/nightly/backup', 'velero'],
        ['clusters/default/pg/restart', 'cloudnative-pg'],
        ['scaledobjects/default/orders/pause', 'keda'],
        ['nodeclaims/_/claim/disrupt', 'karpenter'],
      ]) {
        const res = await bare.post(`/api/ecosystem/${path}`, { dryRun: true });
        expect(res.status, path).toBe(404);
        const body = (await res.json()) as { code: string; error: string };
        expect(body.code, path).toBe('kind_not_served');
        expect(body.error, path).toContain(`${integration}'s CRDs are not installed`);
      }
    } finally {
      await bare.close();
      await second.down();
    }
  });
});

describe('the timeline and the MCP tool', () => {
  it('the MCP tool runs the same actions; a write tool, absent from /mcp-readonly', async () => {
    await create(scaledObjects, scaledObject('from-mcp'));
    const client = await connect(fixture.agent);
    const paused = await json<{ changed: boolean }>(client, 'manage_ecosystem', {
      action: 'pause',
      kind: 'scaledobjects.keda.sh',
      namespace: ns(),
      name: 'from-mcp',
    });
    expect(paused.changed).toBe(true);
    expect((await read(scaledObjects, 'from-mcp')).metadata.annotations).toEqual({
      'autoscaling.keda.sh/paused': 'true',
    });
    expect(
      await call(client, 'manage_ecosystem', {
        action: 'renew',
        kind: 'Deployment',
        namespace: ns(),
        name: 'x',
      }),
    ).toMatchObject({
      isError: true,
      text: expect.stringMatching(/^unknown_kind: renew takes/),
    });
    await create(schedules, veleroSchedule('from-mcp', ['shop']));
    const backup = await json<{ backup: { metadata: { name: string } } }>(client, 'manage_ecosystem', {
      action: 'backup',
      kind: 'schedules.velero.io',
      namespace: ns(),
      name: 'from-mcp',
      backup_name: 'from-mcp-now',
    });
    expect(backup.backup.metadata.name).toBe('from-mcp-now');
    expect((await read(veleroBackups, 'from-mcp-now')).metadata.labels).toMatchObject({
      'velero.io/schedule-name': 'from-mcp',
    });
    // The cnpg plugin's flags through the tool: the Backup a dry run would make, and a name the route refuses.
    await create(postgresClusters, postgresCluster('from-mcp'));
    const cnpg = {
      action: 'backup',
      kind: 'clusters.postgresql.cnpg.io',
      namespace: ns(),
      name: 'from-mcp',
      dry_run: true,
      method: 'plugin',
      plugin: 'barman-cloud.cloudnative-pg.io',
    };
    const planned = await json<{ backup: { spec: Record<string, unknown> } }>(client, 'manage_ecosystem', {
      ...cnpg,
      plugin_parameters: { barmanObjectName: 'minio-store' },
      immediate_checkpoint: true,
      wait_for_archive: false,
    });
    expect(planned.backup.spec).toMatchObject({
      pluginConfiguration: {
        name: 'barman-cloud.cloudnative-pg.io',
        parameters: { barmanObjectName: 'minio-store' },
      },
      onlineConfiguration: { immediateCheckpoint: true, waitForArchive: false },
    });
    expect(
      (await call(client, 'manage_ecosystem', { ...cnpg, plugin_parameters: { 'no spaces': 'x' } })).text,
    ).toMatch(/-32602: [\s\S]*plugin_parameters/);
    const readOnly = await connect(fixture.agent, '/mcp-readonly');
    expect((await readOnly.listTools()).tools.map((t) => t.name)).not.toContain('manage_ecosystem');
  });

  it('records each action on the timeline with its actor; dry runs are not there', async () => {
    type Entry = {
      reason: string;
      kind: string;
      message: string;
      actor?: { user: string; identity?: string };
    };
    const entries = async (query: string) =>
      (
        await fixture.agent.json<{ events: Entry[] }>(`/api/changes?${query}&preset=all&limit=500`)
      ).events.filter((e) => e.actor?.user === identities.admin.user);
    await waitUntil(
      'the actions on the timeline',
      async () => (await entries(`namespace=${ns()}`)).length >= 8,
      {
        timeoutMs: 10_000,
        intervalMs: 200,
      },
    );
    const namespaced = await entries(`namespace=${ns()}`);
    expect(namespaced.map((e) => `${e.kind} ${e.reason}`)).toEqual(
      expect.arrayContaining([
        'Certificate Renew',
        'Schedule Backup',
        'ScaledObject Pause',
        'ScaledObject Resume',
        'Cluster Backup',
        'Cluster Restart',
      ]),
    );
    expect(namespaced.every((e) => e.actor?.identity === 'agent')).toBe(true);
    expect(namespaced.some((e) => e.message.includes('dry run'))).toBe(false);
    expect((await entries('kind=NodeClaim')).map((e) => e.reason)).toContain('Disrupt');
  });
});

describe('as a signed-in caller (--auth-mode proxy)', () => {
  // A person the agent impersonates: allowed to read and patch ScaledObjects in the namespace by a ClusterRole of
  // this file's own, or not at all. The API server's RBAC decides, and the timeline names the person.
  const proxyAddress = '127.0.0.2';
  const rbac = cluster.kubeConfig('admin').makeApiClient(RbacAuthorizationV1Api);
  const role = `binnacle-test-keda-${Date.now().toString(36)}`;
  let proxied: TestAgent | undefined;
  let unbind: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    await rbac.createClusterRole({
      body: {
        metadata: { name: role },
        rules: [{ apiGroups: ['keda.sh'], resources: ['scaledobjects'], verbs: ['get', 'patch'] }],
      },
    });
    const alice = { kind: 'User', name: 'keda-alice@example.com' } as const;
    // `view` too, so that she may read the timeline of the namespace.
    unbind = await Promise.all([bindInNamespace(ns(), alice, role), bindInNamespace(ns(), alice)]);
    proxied = await startTestAgent({ config: { authMode: 'proxy', authProxyAddresses: proxyAddress } });
  });
  afterAll(async () => {
    await Promise.all([
      ...unbind.map((remove) => remove()),
      proxied?.close(),
      rbac.deleteClusterRole({ name: role }).catch(() => undefined),
    ]);
  });
  const pauseAs = (user: string, body: Record<string, unknown> = {}) =>
    sendFrom(
      proxied as TestAgent,
      `/api/ecosystem/scaledobjects/${ns()}/as-caller/pause`,
      { 'x-forwarded-user': user },
      proxyAddress,
      'POST',
      { json: body },
    );

  it('acts as the caller: one the RBAC allows pauses, on the timeline by name; another is 403, even for a dry run', async () => {
    await create(scaledObjects, scaledObject('as-caller'));
    for (const body of [{ dryRun: true }, {}]) {
      const refused = await pauseAs('keda-bob@example.com', body);
      expect(refused.status).toBe(403);
      expect(String(refused.body.error)).toContain('keda-bob@example.com');
    }
    expect((await read(scaledObjects, 'as-caller')).metadata.annotations).toBeUndefined();
    const paused = await pauseAs('keda-alice@example.com');
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    expect((await read(scaledObjects, 'as-caller')).metadata.annotations).toEqual({
      'autoscaling.keda.sh/paused': 'true',
    });
    const timeline = await sendFrom(
      proxied as TestAgent,
      `/api/changes?namespace=${ns()}&kind=ScaledObject&preset=all&limit=500`,
      { 'x-forwarded-user': 'keda-alice@example.com' },
      proxyAddress,
    );
    expect(timeline.status, JSON.stringify(timeline.body)).toBe(200);
    const events = timeline.body.events as { reason: string; name: string; actor?: unknown }[];
    expect(events.filter((e) => e.name === 'as-caller' && e.reason === 'Pause').map((e) => e.actor)).toEqual([
      { user: 'keda-alice@example.com', groups: [], identity: 'caller' },
    ]);
  });
});
