import { rm } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HubConfig } from '../../config/hub-config.ts';
import { unversionedCredential } from '../../db/migration-0004-pat-credential.ts';
import {
  addedUsersIdp,
  type Credential,
  freshDatabase,
  type StandInAgent,
  type StandInAnswer,
  startStandInAgent,
  startTestHub,
  type TestHub,
} from '../../testing/index.ts';

/**
 * Issue 37 #3: after the documented rotation (new break-glass password, restart) a PAT minted in a
 * break-glass session still read /api/account, created an owner invitation and read Secrets through the
 * tunnel. It must end with the sessions, on the restarted hub, at its first use.
 */
const newPassword = 'a brand new break-glass password';
let agent: StandInAgent;
const open: { close(): Promise<void> }[] = [];
beforeAll(async () => {
  agent = await startStandInAgent();
});
afterAll(() => agent.close());
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close();
});

/** A database the hubs of one test share across restarts; removed after the test. */
async function database() {
  const location = await freshDatabase();
  open.push({ close: () => rm(location.dataDir, { recursive: true, force: true }) });
  return location;
}

/** A hub on `location`, listening on loopback (the stand-in agent dials it). */
async function listeningHub(location: TestHub['database'], config: Partial<HubConfig> = {}) {
  const t = await startTestHub({
    database: location,
    config: { port: 0, listenAddress: '127.0.0.1', ...addedUsersIdp, ...config },
  });
  open.push(t);
  await t.hub.listen();
  return t;
}

/** Stops what the test opened last, down to (not including) the database: a restart follows. */
async function stopHubs() {
  while (open.length > 1) await open.pop()?.close();
}

/** A PAT minted with a session cookie: its id and token. */
async function mint(t: TestHub, cookie: string, name: string) {
  const minted = await t.request('POST', '/api/pats', { as: { cookie }, body: { name } });
  expect(minted.status, minted.body).toBe(201);
  return minted.json<{ id: string; token: string }>();
}

/** The three calls of the report: who am I, an owner invitation, Secrets through the tunnel. */
async function attack(t: TestHub, orgId: string, clusterId: string, as: Credential) {
  const account = await t.request('GET', '/api/account', { as });
  const invitation = await t.request('POST', `/api/orgs/${orgId}/invitations`, {
    as,
    body: { email: `mallory-${Math.random()}@example.com`, role: 'owner' },
  });
  const secrets = await t.request('GET', `/c/${clusterId}/api/resources/secrets?namespace=demo-shop`, { as });
  return [account, invitation, secrets];
}

describe('a new break-glass password', () => {
  it('ends the PATs minted in break-glass sessions at once: /api/account, invitations and /c/<id> answer 401', async () => {
    const location = await database();
    const before = await listeningHub(location);
    const admin = await before.signInBreakGlass();
    const cluster = (
      await before.request('POST', '/api/clusters', { as: { cookie: admin.cookie }, body: { name: 'prod' } })
    ).json<{ id: string; token: string }>();
    open.push(await agent.connect(before, cluster.id, cluster.token));
    const pat = await mint(before, admin.cookie, 'automation');
    // An OIDC user's PAT: a new break-glass password says nothing about the IdP's sign-in.
    const colleague = await before.addUser('colleague@example.com', 'owner', admin.orgId);
    const colleaguePat = (await mint(before, colleague.cookie, 'ci')).token;
    expect((await attack(before, admin.orgId, cluster.id, { pat: pat.token })).map((a) => a.status)).toEqual([
      200, 201, 200,
    ]);

    // The documented rotation: change the secret, restart.
    await stopHubs();
    const after = await listeningHub(location, { breakGlassPassword: newPassword });
    open.push(await agent.connect(after, cluster.id, cluster.token));

    for (const answer of await attack(after, admin.orgId, cluster.id, { pat: pat.token })) {
      expect(answer.status, answer.body).toBe(401);
      expect(answer.json().code).toBe('unauthenticated');
    }
    const [first] = await attack(after, admin.orgId, cluster.id, { pat: pat.token });
    expect(first?.json().error).toBe('the personal access token is not valid'); // revoked at its first use
    expect(
      (await attack(after, admin.orgId, cluster.id, { pat: colleaguePat })).map((a) => a.status),
    ).toEqual([200, 201, 200]);

    // The admin, signed in with the new password, reaches the cluster and sees the revocation in the audit log.
    const { cookie } = await after.signInBreakGlass(newPassword);
    const through = await after.request('GET', `/c/${cluster.id}/api/health`, { as: { cookie } });
    expect(through.json<StandInAnswer>().path).toBe('/api/health');
    const audit = await after.request('GET', `/api/orgs/${admin.orgId}/audit?action=pat.revoke`, {
      as: { cookie },
    });
    expect(audit.json<{ items: unknown[] }>().items).toEqual([
      expect.objectContaining({
        via: 'system',
        actor: null,
        target: { type: 'pat', id: pat.id, name: 'automation' },
        detail: { name: 'automation', reason: 'the break-glass password changed' },
      }),
    ]);
    expect((await after.request('GET', '/api/pats', { as: { cookie } })).json()).toEqual({ items: [] });
  });

  it('keeps them while the password stays the same, across restarts', async () => {
    const location = await database();
    const before = await listeningHub(location);
    const admin = await before.signInBreakGlass();
    const { token } = await mint(before, admin.cookie, 'kept');
    await stopHubs();
    const after = await listeningHub(location);
    expect((await after.request('GET', '/api/account', { as: { pat: token } })).status).toBe(200);
  });

  it('ends the break-glass PATs minted before PATs recorded a password version (the upgrade)', async () => {
    const t = await listeningHub(await database());
    const admin = await t.signInBreakGlass();
    const { token } = await mint(t, admin.cookie, 'old');
    // What migration 0004 leaves on a break-glass PAT that existed before it.
    await t.hub.ctx.database.db
      .updateTable('pats')
      .set({ credential_version: unversionedCredential })
      .execute();
    t.hub.ctx.accessCache.clear();
    expect((await t.request('GET', '/api/account', { as: { pat: token } })).status).toBe(401);
  });
});
