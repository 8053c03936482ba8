import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addedUsersIdp, startTestHub, type TestHub } from '../testing/index.ts';

/**
 * Two organizations on one hub. Everything that belongs to org B — the org itself, its clusters, members,
 * invitations, PATs and audit log — is 404 for an owner of org A, by session and by PAT, so ids leak nothing.
 */
let t: TestHub;
const a = {} as { cookie: string; pat: string; orgId: string };
const b = {} as { orgId: string; clusterId: string; memberId: string; invitationId: string; patId: string };

beforeAll(async () => {
  t = await startTestHub({ config: addedUsersIdp });
  const admin = await t.signInBreakGlass();
  b.orgId = admin.orgId;
  const ownerB = { cookie: admin.cookie };
  b.clusterId = (await t.request('POST', '/api/clusters', { as: ownerB, body: { name: 'prod' } })).json<{
    id: string;
  }>().id;
  const memberB = await t.addUser('bob@b.example', 'member', b.orgId);
  b.memberId = memberB.userId;
  b.patId = (
    await t.request('POST', '/api/pats', { as: { cookie: memberB.cookie }, body: { name: 'b' } })
  ).json<{ id: string }>().id;
  b.invitationId = (
    await t.request('POST', `/api/orgs/${b.orgId}/invitations`, {
      as: ownerB,
      body: { email: 'x@b.example', role: 'viewer' },
    })
  ).json<{ id: string }>().id;

  a.orgId = await t.createOrg('org A');
  const ownerA = await t.addUser('alice@a.example', 'owner', a.orgId);
  a.cookie = ownerA.cookie;
  a.pat = (await t.request('POST', '/api/pats', { as: { cookie: a.cookie }, body: { name: 'a' } })).json<{
    token: string;
  }>().token;
});
afterAll(() => t.close());

const probes = () =>
  [
    ['GET', `/api/orgs/${b.orgId}`],
    ['PATCH', `/api/orgs/${b.orgId}`, { name: 'taken over' }],
    ['GET', `/api/orgs/${b.orgId}/members`],
    ['PATCH', `/api/orgs/${b.orgId}/members/${b.memberId}`, { role: 'viewer' }],
    ['DELETE', `/api/orgs/${b.orgId}/members/${b.memberId}`],
    ['PATCH', `/api/orgs/${a.orgId}/members/${b.memberId}`, { role: 'viewer' }],
    ['DELETE', `/api/orgs/${a.orgId}/members/${b.memberId}`],
    ['GET', `/api/orgs/${b.orgId}/invitations`],
    ['POST', `/api/orgs/${b.orgId}/invitations`, { email: 'spy@a.example', role: 'owner' }],
    ['DELETE', `/api/orgs/${b.orgId}/invitations/${b.invitationId}`],
    ['DELETE', `/api/orgs/${a.orgId}/invitations/${b.invitationId}`],
    ['GET', `/api/orgs/${b.orgId}/audit`],
    ['PATCH', `/api/clusters/${b.clusterId}`, { name: 'mine' }],
    ['DELETE', `/api/clusters/${b.clusterId}`],
    ['POST', `/api/clusters/${b.clusterId}/rotate-token`],
    ['GET', `/c/${b.clusterId}/api/health`],
    ['DELETE', `/api/pats/${b.patId}`],
    ['PATCH', '/api/account', { currentOrgId: b.orgId }],
  ] as const;

describe('cross-organization isolation', () => {
  for (const via of ['session', 'PAT'] as const) {
    it(`an owner of org A gets 404 for every id of org B (${via})`, async () => {
      const as = via === 'session' ? { cookie: a.cookie } : { pat: a.pat };
      for (const [method, path, body] of probes()) {
        if (via === 'PAT' && path === '/api/account') continue; // session-only route: 403 for any PAT
        const answer = await t.request(method, path, { as, body });
        expect(answer.status, `${method} ${path}: ${answer.body}`).toBe(404);
        expect(answer.json().code).toBe('not_found');
      }
    });
  }

  it("lists show only the caller's organization", async () => {
    const as = { cookie: a.cookie };
    expect((await t.request('GET', '/api/clusters', { as })).json<{ items: unknown[] }>().items).toEqual([]);
    expect(
      (await t.request('GET', '/api/pats', { as }))
        .json<{ items: { name: string }[] }>()
        .items.map((p) => p.name),
    ).toEqual(['a']);
    const orgs = (await t.request('GET', '/api/orgs', { as })).json<{ items: { id: string }[] }>().items;
    expect(orgs.map((o) => o.id)).toEqual([a.orgId]);
    const members = (await t.request('GET', `/api/orgs/${a.orgId}/members`, { as })).json<{
      items: { email: string }[];
    }>().items;
    expect(members.map((m) => m.email)).toEqual(['alice@a.example']);
  });

  it('nothing of org B changed', async () => {
    const stored = await t.hub.ctx.database.db
      .selectFrom('clusters')
      .select(['name', 'token_rotated_at'])
      .where('id', '=', b.clusterId)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ name: 'prod', token_rotated_at: null });
    const member = await t.hub.ctx.database.db
      .selectFrom('memberships')
      .select('role')
      .where('user_id', '=', b.memberId)
      .executeTakeFirstOrThrow();
    expect(member.role).toBe('member');
    const kept = (table: 'pats' | 'invitations', id: string) =>
      t.hub.ctx.database.db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst();
    expect(await kept('pats', b.patId)).toBeDefined();
    expect(await kept('invitations', b.invitationId)).toBeDefined();
  });

  it('a PAT pinned to org A cannot reach org B even when its owner also belongs to B', async () => {
    const both = await t.addUser('carol@a.example', 'owner', a.orgId);
    const pat = (
      await t.request('POST', '/api/pats', { as: { cookie: both.cookie }, body: { name: 'pinned' } })
    ).json<{ token: string }>().token;
    await t.hub.ctx.database.db
      .insertInto('memberships')
      .values({
        org_id: b.orgId,
        user_id: both.userId,
        role: 'owner',
        created_at: t.clock.now().toISOString(),
      })
      .execute();
    expect((await t.request('GET', `/api/orgs/${b.orgId}`, { as: { cookie: both.cookie } })).status).toBe(
      200,
    );
    expect((await t.request('GET', `/api/orgs/${b.orgId}`, { as: { pat } })).status).toBe(404);
    expect((await t.request('GET', `/api/orgs/${b.orgId}/audit`, { as: { pat } })).status).toBe(404);
    // Through the tunnel door too: the session may reach B's cluster (offline here: 503), the pinned PAT not.
    const tunneled = `/c/${b.clusterId}/api/health`;
    expect((await t.request('GET', tunneled, { as: { cookie: both.cookie } })).status).toBe(503);
    expect((await t.request('GET', tunneled, { as: { pat } })).status).toBe(404);
  });
});
