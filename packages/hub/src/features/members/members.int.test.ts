import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addedUsersIdp, startTestHub, type TestHub } from '../../testing/index.ts';

let t: TestHub;
let orgId: string;
let owner: { cookie: string; userId: string };
beforeAll(async () => {
  t = await startTestHub({ config: addedUsersIdp });
  orgId = await t.createOrg('acme');
  owner = await t.addUser('owner@acme.example', 'owner', orgId);
});
afterAll(() => t.close());

const asOwner = () => ({ as: { cookie: owner.cookie } });

describe('members and roles', () => {
  it('never leaves an organization without an owner', async () => {
    const demote = await t.request('PATCH', `/api/orgs/${orgId}/members/${owner.userId}`, {
      ...asOwner(),
      body: { role: 'member' },
    });
    expect(demote.status).toBe(409);
    expect(demote.json().error).toMatch(/last owner/);
    expect((await t.request('DELETE', `/api/orgs/${orgId}/members/${owner.userId}`, asOwner())).status).toBe(
      409,
    );
  });

  it('applies a role change at the next request', async () => {
    const user = await t.addUser('moving@acme.example', 'member', orgId);
    expect(
      (await t.request('POST', '/api/pats', { as: { cookie: user.cookie }, body: { name: 'x' } })).status,
    ).toBe(201);
    await t.request('PATCH', `/api/orgs/${orgId}/members/${user.userId}`, {
      ...asOwner(),
      body: { role: 'viewer' },
    });
    expect(
      (await t.request('POST', '/api/pats', { as: { cookie: user.cookie }, body: { name: 'y' } })).status,
    ).toBe(403);
    await t.request('PATCH', `/api/orgs/${orgId}/members/${user.userId}`, {
      ...asOwner(),
      body: { role: 'owner' },
    });
    expect((await t.request('GET', `/api/orgs/${orgId}/audit`, { as: { cookie: user.cookie } })).status).toBe(
      200,
    );
  });

  it('lists members by e-mail with a total, paged', async () => {
    const page = await t.request('GET', `/api/orgs/${orgId}/members?limit=1&offset=1`, asOwner());
    const body = page.json<{ items: { email: string }[]; total: number }>();
    expect(body.total).toBeGreaterThanOrEqual(2);
    expect(body.items).toHaveLength(1);
    expect((await t.request('GET', `/api/orgs/${orgId}/members?limit=501`, asOwner())).status).toBe(400);
  });

  it('refuses an offset or an audit cursor past its bound with 400 naming it, never a database error', async () => {
    for (const [path, field] of [
      [`/api/orgs/${orgId}/members?offset=9223372036854775808`, 'offset'],
      [`/api/orgs/${orgId}/members?offset=1000001`, 'offset'],
      [`/api/orgs/${orgId}/audit?cursor=9223372036854775808`, 'cursor'],
    ] as const) {
      const answer = await t.request('GET', path, asOwner());
      expect(answer.status, `${path}: ${answer.body}`).toBe(400);
      expect(answer.json()).toMatchObject({ code: 'invalid_request', error: expect.stringContaining(field) });
    }
    const last = await t.request('GET', `/api/orgs/${orgId}/members?offset=1000000`, asOwner());
    expect(last.json()).toMatchObject({ items: [] });
  });
});

describe('invitations', () => {
  const inviteTo = async (email: string, role = 'member') =>
    t.request('POST', `/api/orgs/${orgId}/invitations`, { ...asOwner(), body: { email, role } });

  it('lets the invited person join with the role, once; their session switches to the organization', async () => {
    const elsewhere = await t.createOrg('elsewhere');
    const invitee = await t.addUser('invitee@example.com', 'viewer', elsewhere);
    const invitation = (await inviteTo('Invitee@Example.com', 'member')).json<{
      id: string;
      token: string;
    }>();
    expect(invitation.token).toMatch(/^bni_/);
    const accepted = await t.request('POST', '/api/invitations/accept', {
      as: { cookie: invitee.cookie },
      body: { token: invitation.token },
    });
    expect(accepted.json()).toEqual({ orgId, role: 'member' });
    expect((await t.request('GET', '/api/account', { as: { cookie: invitee.cookie } })).json()).toMatchObject(
      { currentOrg: { id: orgId, role: 'member' } },
    );
    const again = await t.request('POST', '/api/invitations/accept', {
      as: { cookie: invitee.cookie },
      body: { token: invitation.token },
    });
    expect(again.status).toBe(404);
    expect((await inviteTo('invitee@example.com')).status).toBe(409); // already a member
  });

  it('is refused for another e-mail, after 168h, and once withdrawn', async () => {
    const elsewhere = await t.createOrg('third');
    const stranger = await t.addUser('stranger@example.com', 'owner', elsewhere);
    const accept = (token: string) =>
      t.request('POST', '/api/invitations/accept', { as: { cookie: stranger.cookie }, body: { token } });
    // A week later every session has ended too: both people sign in again.
    const signInAgain = async (userId: string, org: string) =>
      (await t.hub.ctx.sessions.open({ userId, orgId: org, method: 'oidc' })).cookieValue;
    const forOther = (await inviteTo('someone@example.com')).json<{ token: string }>();
    expect((await accept(forOther.token)).status).toBe(403);
    const expiring = (await inviteTo('stranger@example.com')).json<{ token: string }>();
    t.clock.advance(168 * 3_600_000);
    stranger.cookie = await signInAgain(stranger.userId, elsewhere);
    owner.cookie = await signInAgain(owner.userId, orgId);
    expect((await accept(expiring.token)).status).toBe(404);
    const withdrawn = (await inviteTo('stranger@example.com')).json<{ id: string; token: string }>();
    expect((await t.request('GET', `/api/orgs/${orgId}/invitations`, asOwner())).body).toContain(
      withdrawn.id,
    );
    expect(
      (await t.request('DELETE', `/api/orgs/${orgId}/invitations/${withdrawn.id}`, asOwner())).status,
    ).toBe(204);
    expect((await accept(withdrawn.token)).status).toBe(404);
    expect((await accept('bni_garbage')).status).toBe(404);
  });
  it('waits as long as the owner chose, from an hour to 30 days', async () => {
    const invite = (expiresInHours: unknown) =>
      t.request('POST', `/api/orgs/${orgId}/invitations`, {
        ...asOwner(),
        body: { email: 'brief@example.com', role: 'viewer', expiresInHours },
      });
    const brief = await invite(24);
    expect(brief.status).toBe(201);
    const { createdAt, expiresAt } = brief.json<{ createdAt: string; expiresAt: string }>();
    expect(Date.parse(expiresAt) - Date.parse(createdAt)).toBe(24 * 3_600_000);
    for (const refused of [0, 721, 1.5, 'soon']) {
      const answer = await invite(refused);
      expect(answer.status).toBe(400);
      expect(answer.json()).toMatchObject({ code: 'invalid_request' });
      expect(answer.json<{ error: string }>().error).toMatch(/expiresInHours/);
    }
  });
});

describe('invitations on a hub where only the break-glass admin signs in', () => {
  it('are refused with 409 invitations_unavailable, nothing stored, and /api/health says so', async () => {
    const bare = await startTestHub();
    try {
      const admin = await bare.signInBreakGlass();
      const refused = await bare.request('POST', `/api/orgs/${admin.orgId}/invitations`, {
        as: { cookie: admin.cookie },
        body: { email: 'dev@example.com', role: 'viewer' },
      });
      expect(refused.status).toBe(409);
      expect(refused.json()).toEqual({
        code: 'invitations_unavailable',
        error: expect.stringContaining('only the break-glass admin can sign in'),
      });
      const pending = await bare.request('GET', `/api/orgs/${admin.orgId}/invitations`, {
        as: { cookie: admin.cookie },
      });
      expect(pending.json()).toEqual({ items: [] });
      expect((await bare.request('GET', '/api/health')).json()).toMatchObject({
        oidc: false,
        invitations: false,
      });
    } finally {
      await bare.close();
    }
  });
});

describe('audit log', () => {
  it('records every state change with actor, action, target, time and PAT use; pages newest first', async () => {
    const pat = (await t.request('POST', '/api/pats', { ...asOwner(), body: { name: 'auditor' } })).json<{
      id: string;
      token: string;
    }>();
    const cluster = (
      await t.request('POST', '/api/clusters', { as: { pat: pat.token }, body: { name: 'audited' } })
    ).json<{ id: string }>();
    await t.request('POST', `/api/clusters/${cluster.id}/rotate-token`, asOwner());
    await t.request('PATCH', `/api/orgs/${orgId}`, { ...asOwner(), body: { name: 'acme inc' } });
    const first = (await t.request('GET', `/api/orgs/${orgId}/audit?limit=3`, asOwner())).json<{
      items: Record<string, unknown>[];
      nextCursor: string;
    }>();
    expect(first.items.map((e) => e.action)).toEqual([
      'org.update',
      'cluster.rotate_token',
      'cluster.create',
    ]);
    expect(first.items[2]).toMatchObject({
      via: 'pat',
      patId: pat.id,
      patName: 'auditor',
      target: { type: 'cluster', id: cluster.id, name: 'audited' },
      actor: { email: 'owner@acme.example', name: 'owner' },
    });
    expect(first.items[1]).toMatchObject({ via: 'session', patId: null });
    expect(first.items[0]?.at).toBe(t.clock.now().toISOString());
    const second = (
      await t.request('GET', `/api/orgs/${orgId}/audit?limit=3&cursor=${first.nextCursor}`, asOwner())
    ).json<{ items: { action: string; id: number }[] }>();
    expect(second.items[0]?.action).toBe('pat.create');
    const all = (await t.request('GET', `/api/orgs/${orgId}/audit?limit=200`, asOwner())).json<{
      items: { action: string }[];
    }>();
    const actions = new Set(all.items.map((e) => e.action));
    for (const action of [
      'member.role_change',
      'invitation.create',
      'invitation.accept',
      'invitation.revoke',
      'pat.create',
      'cluster.create',
    ])
      expect(actions).toContain(action);
  });

  it('names the target as it was then, and keeps the names of what was renamed or deleted since', async () => {
    const pat = (await t.request('POST', '/api/pats', { ...asOwner(), body: { name: 'short-lived' } })).json<{
      id: string;
    }>();
    const cluster = (
      await t.request('POST', '/api/clusters', { ...asOwner(), body: { name: 'doomed' } })
    ).json<{ id: string }>();
    await t.request('PATCH', `/api/clusters/${cluster.id}`, { ...asOwner(), body: { name: 'doomed-eu' } });
    await t.request('DELETE', `/api/clusters/${cluster.id}`, asOwner());
    await t.request('DELETE', `/api/pats/${pat.id}`, asOwner());
    const invitation = (
      await t.request('POST', `/api/orgs/${orgId}/invitations`, {
        ...asOwner(),
        body: { email: 'gone@example.com', role: 'viewer' },
      })
    ).json<{ id: string }>();
    await t.request('DELETE', `/api/orgs/${orgId}/invitations/${invitation.id}`, asOwner());
    const { items } = (await t.request('GET', `/api/orgs/${orgId}/audit?limit=7`, asOwner())).json<{
      items: { action: string; target: { name: string } }[];
    }>();
    expect(items.map((e) => [e.action, e.target.name])).toEqual([
      ['invitation.revoke', 'gone@example.com'],
      ['invitation.create', 'gone@example.com'],
      ['pat.revoke', 'short-lived'],
      ['cluster.delete', 'doomed-eu'],
      ['cluster.update', 'doomed-eu'],
      ['cluster.create', 'doomed'],
      ['pat.create', 'short-lived'],
    ]);
  });
});

describe('metrics and health', () => {
  it('serves Prometheus text with request and sign-in counters, and health without credentials', async () => {
    expect((await t.request('GET', '/api/health')).json()).toMatchObject({
      status: 'ok',
      breakGlass: true,
      oidc: true, // the sign-in page offers the IdP button only when this is true
      invitations: true,
    });
    await t.signInBreakGlass();
    const metrics = await t.request('GET', '/metrics');
    expect(metrics.headers['cache-control']).toBe('no-store');
    expect(metrics.body).toMatch(
      /binnacle_hub_http_requests_total\{method="POST",route="\/api\/orgs\/:org_id\/invitations",status="201"\} \d+/,
    );
    expect(metrics.body).toContain('binnacle_hub_sign_ins_total{method="break-glass",result="ok"} 1');
    expect(metrics.body).toMatch(/binnacle_hub_sessions_active \d+/);
  });
});
