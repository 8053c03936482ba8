import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterForToken } from '../../services/clusters/directory.ts';
import { startOidcTestHub, startTestHub, type TestHub } from '../../testing/index.ts';

let t: TestHub;
let as: { cookie: string };
beforeAll(async () => {
  t = await startTestHub();
  as = { cookie: (await t.signInBreakGlass()).cookie };
});
afterAll(() => t.close());

const create = (name: string) => t.request('POST', '/api/clusters', { as, body: { name } });

describe('clusters', () => {
  it('registers a cluster with an agent token shown once and kept hashed', async () => {
    const answer = await create('prod-eu');
    expect(answer.status, answer.body).toBe(201);
    const cluster = answer.json<{ id: string; token: string; tokenHint: string }>();
    expect(cluster.token).toMatch(/^bnc_[0-9A-Za-z]{49}$/);
    expect(cluster.tokenHint).toBe(cluster.token.slice(-4));
    expect(await clusterForToken(t.hub.ctx, cluster.token)).toMatchObject({
      id: cluster.id,
      name: 'prod-eu',
    });
    const listed = (await t.request('GET', '/api/clusters', { as })).body;
    expect(listed).toContain('prod-eu');
    expect(listed).not.toContain(cluster.token);
  });

  it('refuses a duplicate name with 409 and a bad name with 400 naming the field', async () => {
    await create('staging');
    const duplicate = await create('staging');
    expect(duplicate.status).toBe(409);
    expect(duplicate.json().code).toBe('already_exists');
    const bad = await create('Not A Label');
    expect(bad.status).toBe(400);
    expect(bad.json().error).toMatch(/name/);
  });

  it("finds one cluster of your organizations, offline, with the steps that reconnect its agent; another's is 404", async () => {
    const cluster = (await create('lonely')).json<{ id: string }>();
    const found = await t.request('GET', `/api/clusters/${cluster.id}`, { as });
    expect(found.status, found.body).toBe(200);
    const answer = found.json<{ reconnect: Record<string, string[]> }>();
    expect(answer).toMatchObject({
      id: cluster.id,
      name: 'lonely',
      connected: false,
      lastSeenAt: null,
      reconnect: { values: { cloud: { url: t.origin, existingSecret: 'binnacle-agent-token' } } },
    });
    expect(answer.reconnect.pointHere?.[0]).toContain(`--set cloud.url=${t.origin}`);
    expect(answer.reconnect.withoutChart?.[0]).toContain(`binnacle agent --cloud-url ${t.origin}`);
    const elsewhere = await t.createOrg('elsewhere');
    const stranger = await t.addUser('stranger@elsewhere.example', 'owner', elsewhere);
    for (const path of [`/api/clusters/${cluster.id}`, `/c/${cluster.id}/api/health`]) {
      const hidden = await t.request('GET', path, { as: { cookie: stranger.cookie } });
      expect(hidden.status, path).toBe(404);
      expect(hidden.json().code).toBe('not_found');
    }
  });

  it('rotating the token invalidates the old one at once', async () => {
    const cluster = (await create('rotating')).json<{ id: string; token: string }>();
    const rotated = await t.request('POST', `/api/clusters/${cluster.id}/rotate-token`, { as });
    expect(rotated.status, rotated.body).toBe(200);
    const fresh = rotated.json<{ token: string; tokenRotatedAt: string }>();
    expect(fresh.token).not.toBe(cluster.token);
    expect(fresh.tokenRotatedAt).toBe(t.clock.now().toISOString());
    expect(await clusterForToken(t.hub.ctx, cluster.token)).toBeUndefined();
    expect(await clusterForToken(t.hub.ctx, fresh.token)).toMatchObject({ id: cluster.id });
  });

  it('renames, deletes (the token stops working) and answers 404 for unknown ids', async () => {
    const cluster = (await create('old-name')).json<{ id: string; token: string }>();
    const renamed = await t.request('PATCH', `/api/clusters/${cluster.id}`, {
      as,
      body: { name: 'new-name' },
    });
    expect(renamed.json()).toMatchObject({ name: 'new-name' });
    expect((await t.request('DELETE', `/api/clusters/${cluster.id}`, { as })).status).toBe(204);
    expect(await clusterForToken(t.hub.ctx, cluster.token)).toBeUndefined();
    expect((await t.request('DELETE', `/api/clusters/${cluster.id}`, { as })).status).toBe(404);
    expect((await t.request('POST', '/api/clusters/nope/rotate-token', { as })).status).toBe(404);
  });
});

describe('the connect page', () => {
  type Connect = {
    cluster: { id: string; token: string };
    clusterAccess: string;
    values: { cloud: Record<string, unknown> };
    commands: string[];
  };

  it('registers the cluster and generates the agent install; roles mode keeps the default bindings', async () => {
    const before = (await t.request('GET', '/api/clusters', { as })).json<{ items: unknown[] }>().items;
    const answer = await t.request('POST', '/api/clusters/connect', { as, body: { name: 'fresh' } });
    expect(answer.status, answer.body).toBe(201);
    const connect = answer.json<Connect>();
    expect(connect.clusterAccess).toBe('roles');
    expect(connect.values.cloud).toEqual({
      url: t.origin,
      existingSecret: 'binnacle-agent-token',
      defaultRbac: { create: true },
    });
    expect(connect.commands.join('\n')).toContain(connect.cluster.token);
    expect(connect.commands.at(-1)).toContain('--set cloud.defaultRbac.create=true');
    const after = (await t.request('GET', '/api/clusters', { as })).json<{ items: unknown[] }>().items;
    expect(after).toEqual(expect.arrayContaining(before)); // existing clusters are never changed
  });

  it('"already running in this cluster" upgrades with the existing values, keeping their bindings', async () => {
    const connect = (
      await t.request('POST', '/api/clusters/connect', {
        as,
        body: { name: 'existing', alreadyRunning: true },
      })
    ).json<Connect>();
    expect(connect.values.cloud).not.toHaveProperty('defaultRbac');
    expect(connect.commands.at(-1)).toMatch(/helm upgrade .* --reset-then-reuse-values/);
    expect(connect.commands.at(-1)).not.toContain('defaultRbac');
  });

  it('an agent outside the chart: started with the token, its bindings at GET /api/agent-rbac', async () => {
    const connect = (
      await t.request('POST', '/api/clusters/connect', { as, body: { name: 'by-hand', outsideChart: true } })
    ).json<Connect>();
    expect(connect.values).toEqual({});
    expect(connect.commands).toEqual([
      `export BINNACLE_CLUSTER_TOKEN=${connect.cluster.token}`,
      `binnacle agent --cloud-url ${t.origin}`,
    ]);
    const rbac = await t.request('GET', '/api/agent-rbac', { as });
    expect(rbac.status, rbac.body).toBe(200);
    expect(rbac.json()).toMatchObject({
      clusterAccess: 'roles',
      manifest: expect.stringContaining('kind: ClusterRole'),
      commands: expect.arrayContaining([
        expect.stringContaining('--group=binnacle:role:owner'),
        expect.stringMatching(/^kubectl auth can-i list pods --all-namespaces --as=binnacle:user:/),
      ]),
    });
    const both = await t.request('POST', '/api/clusters/connect', {
      as,
      body: { name: 'neither', outsideChart: true, alreadyRunning: true },
    });
    expect(both.status).toBe(400);
    expect(both.json()).toMatchObject({
      code: 'invalid_request',
      error: expect.stringContaining('outsideChart'),
    });
    const listed = (await t.request('GET', '/api/clusters', { as })).body;
    expect(listed).not.toContain('"neither"'); // refused before anything was registered
  });

  it('in clusterAccess idp mode, a fresh install gets cloud.defaultRbac.create=false', async () => {
    const oidc = await startOidcTestHub();
    try {
      const owner = (await oidc.t.signInOidc(oidc.idp, 'owner')).cookie;
      const connect = (
        await oidc.t.request('POST', '/api/clusters/connect', {
          as: { cookie: owner },
          body: { name: 'idp-mode' },
        })
      ).json<Connect>();
      expect(connect.clusterAccess).toBe('idp');
      expect(connect.values.cloud).toMatchObject({ defaultRbac: { create: false } });
      expect(connect.commands.at(-1)).toContain('--set cloud.defaultRbac.create=false');
    } finally {
      await oidc.close();
    }
  });
});
