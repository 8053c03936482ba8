import type { TestIdp } from '@binnacle/testkit';
import { describe, expect, it } from 'vitest';
import { hashSecret } from '../../security/tokens.ts';
import { oidcHubPerTest, type TestHub } from '../../testing/index.ts';

const ttlSeconds = 300;
const setup = oidcHubPerTest();

const groupsOf = async (t: TestHub, cookie: string) =>
  (await t.request('GET', '/api/account', { as: { cookie } })).json<{ idpGroups: string[] }>().idpGroups;
/**
 * Moves the hub's clock into the last minute of the ID token's life, when the hub refreshes. The IdP runs on
 * real time, so the tokens it issues from then on live an hour: otherwise they would be due at once again.
 */
function nearExpiry(t: TestHub, idp: TestIdp) {
  idp.idTokenTtl = 3600;
  t.clock.advance((ttlSeconds - 30) * 1000);
}
const warnings = (t: TestHub, text: string) => t.logs.filter((line) => line.includes(text)).length;

// The OIDC rows of the spec's hub-session state table, one test each, against a real IdP.
describe('OIDC session states', () => {
  it('active → active: refresh succeeds before the ID token expires, and a group changed at the IdP shows after it', async () => {
    const { idp, t } = await setup();
    idp.groups.set('alice', ['/platform-admins']);
    const { cookie } = await t.signInOidc(idp, 'alice');
    idp.groups.set('alice', ['/platform-admins', '/eng/sre']);
    expect(await groupsOf(t, cookie)).toEqual(['/platform-admins']); // not refreshed yet: far from expiry
    nearExpiry(t, idp);
    expect(await groupsOf(t, cookie)).toEqual(['/platform-admins', '/eng/sre']);
  });

  it('active → active: IdP unreachable at refresh → 503 with the session kept, then success once it is back', async () => {
    const { idp, t } = await setup();
    idp.groups.set('bob', ['/ops']);
    const { cookie } = await t.signInOidc(idp, 'bob');
    await idp.stop();
    nearExpiry(t, idp);
    // The old ID token is still valid: the request proceeds, the refresh is retried later.
    expect((await t.request('GET', '/api/account', { as: { cookie } })).status).toBe(200);
    t.clock.advance(60_000); // now past the ID token's expiry
    const down = await t.request('GET', '/api/account', { as: { cookie } });
    expect(down.status).toBe(503);
    expect(down.json().code).toBe('idp_unavailable');
    expect(down.headers['set-cookie']).toBeUndefined();
    await idp.start();
    expect((await t.request('GET', '/api/account', { as: { cookie } })).status).toBe(200);
  });

  for (const fault of ['429', '503'] as const) {
    it(`active → active: the IdP answers ${fault} at refresh → 503, session kept`, async () => {
      const { idp, t } = await setup();
      idp.groups.set('carl', ['/ops']);
      const { cookie } = await t.signInOidc(idp, 'carl');
      idp.tokenFault = fault;
      t.clock.advance((ttlSeconds + 20) * 1000);
      expect((await t.request('GET', '/api/account', { as: { cookie } })).json().code).toBe(
        'idp_unavailable',
      );
      idp.tokenFault = 'none';
      expect((await t.request('GET', '/api/account', { as: { cookie } })).status).toBe(200);
    });
  }

  it('active → active: the IdP refuses the hub client (invalid_client) → 503 oidc_client_misconfigured, session kept, logged as an error', async () => {
    const { idp, t } = await setup();
    idp.groups.set('cleo', ['/ops']);
    const { cookie } = await t.signInOidc(idp, 'cleo');
    idp.tokenFault = 'invalid_client';
    t.clock.advance((ttlSeconds + 20) * 1000);
    const refused = await t.request('GET', '/api/account', { as: { cookie } });
    expect(refused.status).toBe(503);
    expect(refused.json().code).toBe('oidc_client_misconfigured');
    expect(t.logs.some((line) => line.includes('"level":50') && line.includes('invalid_client'))).toBe(true);
    idp.tokenFault = 'none';
    expect((await t.request('GET', '/api/account', { as: { cookie } })).status).toBe(200);
  });

  it('keeps the refresh token sealed at rest: no session row holds it in clear', async () => {
    const { idp, t } = await setup();
    const { cookie } = await t.signInOidc(idp, 'sam');
    const found = await t.hub.ctx.sessions.lookup(cookie);
    if (found.state !== 'active' || !found.session.refreshToken) throw new Error('no refresh token kept');
    const rows = await t.hub.ctx.database.db.selectFrom('sessions').selectAll().execute();
    expect(rows.some((row) => row.refresh_token_enc)).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(found.session.refreshToken);
  });

  it('refreshes once for 20 parallel requests at ID-token expiry (single flight)', async () => {
    const { idp, t } = await setup();
    idp.groups.set('rita', ['/ops']);
    const { cookie } = await t.signInOidc(idp, 'rita');
    const before = idp.tokenRequests;
    nearExpiry(t, idp);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => t.request('GET', '/api/account', { as: { cookie } })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(idp.tokenRequests - before).toBe(1);
  });

  it('active → active: a token endpoint that hangs times out after 5 s → 503, session kept', async () => {
    const { idp, t } = await setup();
    idp.groups.set('sam', ['/ops']);
    const { cookie } = await t.signInOidc(idp, 'sam');
    idp.tokenFault = 'hang';
    t.clock.advance((ttlSeconds + 20) * 1000);
    const started = Date.now();
    const answer = await t.request('GET', '/api/account', { as: { cookie } });
    expect(answer.json().code).toBe('idp_unavailable');
    expect(Date.now() - started).toBeLessThan(15_000);
    idp.tokenFault = 'none';
    expect((await t.request('GET', '/api/account', { as: { cookie } })).status).toBe(200);
  });

  it('active → ended: the IdP rejects the refresh (user disabled, grant revoked) → signed out at that refresh', async () => {
    const { idp, t } = await setup();
    const { cookie } = await t.signInOidc(idp, 'dana');
    idp.disabled.add('dana');
    nearExpiry(t, idp);
    const answer = await t.request('GET', '/api/account', { as: { cookie } });
    expect(answer.status).toBe(401);
    expect(answer.json().code).toBe('session_ended');
    expect(String(answer.headers['set-cookie'])).toContain('Max-Age=0');
    const again = await t.request('GET', '/api/account', { as: { cookie } });
    expect(again.json()).toEqual({
      code: 'session_ended',
      error: 'the session ended (the identity provider refused to refresh it); sign in again',
    });
  });

  it('active → ended: the grant is revoked at the IdP → the session ends at the next refresh', async () => {
    const { idp, t } = await setup();
    const { cookie } = await t.signInOidc(idp, 'uma');
    const found = await t.hub.ctx.sessions.lookup(cookie);
    if (found.state !== 'active' || !found.session.refreshToken) throw new Error('no refresh token kept');
    await idp.revoke(found.session.refreshToken);
    expect((await t.request('GET', '/api/account', { as: { cookie } })).status).toBe(200); // not refreshed yet
    nearExpiry(t, idp);
    const answer = await t.request('GET', '/api/account', { as: { cookie } });
    expect(answer.status).toBe(401);
    expect(answer.json().code).toBe('session_ended');
  });

  it('active → ended: no refresh token and the session carries groups → ends at ID-token expiry, one warning logged', async () => {
    const { idp, t } = await setup({ idp: { refreshTokens: false } });
    idp.groups.set('erin', ['/ops']);
    idp.groups.set('fred', ['/ops']);
    const erin = await t.signInOidc(idp, 'erin');
    const fred = await t.signInOidc(idp, 'fred');
    expect(warnings(t, 'sessions-shortened')).toBe(1);
    t.clock.advance((ttlSeconds - 30) * 1000);
    expect((await t.request('GET', '/api/account', { as: { cookie: erin.cookie } })).status).toBe(200);
    t.clock.advance(45_000); // past both tokens' expiry, however long the sign-ins took in real time
    for (const { cookie } of [erin, fred]) {
      const answer = await t.request('GET', '/api/account', { as: { cookie } });
      expect(answer.json().code).toBe('session_ended');
    }
    expect(warnings(t, 'sessions-shortened')).toBe(1);
  });

  it('sessions without groups keep the full lifetime when no refresh token is available', async () => {
    const { idp, t } = await setup({ idp: { refreshTokens: false } });
    const { cookie } = await t.signInOidc(idp, 'gina');
    t.clock.advance(20 * 3_600_000);
    expect((await t.request('GET', '/api/account', { as: { cookie } })).status).toBe(200);
    expect(warnings(t, 'sessions-shortened')).toBe(0);
  });

  it('useRefreshToken off: the refresh token is not kept, so a session with groups ends at ID-token expiry', async () => {
    const { idp, t } = await setup({ config: { oidcUseRefreshToken: 'false' } });
    idp.groups.set('hank', ['/ops']);
    const { cookie } = await t.signInOidc(idp, 'hank');
    t.clock.advance((ttlSeconds + 20) * 1000);
    expect((await t.request('GET', '/api/account', { as: { cookie } })).json().code).toBe('session_ended');
  });
});

describe('group forwarding at sign-in', () => {
  it('forwards /platform-admins as binnacle:idp:/platform-admins', async () => {
    const { idp, t } = await setup();
    idp.groups.set('ivy', ['/platform-admins']);
    const { cookie } = await t.signInOidc(idp, 'ivy');
    const identity = (await t.request('GET', '/api/account', { as: { cookie } })).json<{
      clusterIdentity: { groups: string[] };
    }>().clusterIdentity;
    expect(identity.groups).toContain('binnacle:idp:/platform-admins');
  });

  it('keeps exactly the valid first 64 of hostile and excess values, and signs in', async () => {
    const { idp, t } = await setup();
    const slash128 = `/${'s'.repeat(127)}`;
    const valid = Array.from({ length: 70 }, (_, i) => `team-${i}`);
    idp.groups.set('jay', [
      'has space',
      'a,b',
      'Équipe',
      'ctl\u0001x',
      'z'.repeat(129),
      slash128,
      'CN=ops,OU=groups,DC=example',
      ...valid,
    ]);
    const { cookie, callback } = await t.signInOidc(idp, 'jay');
    expect(callback.status, callback.body).toBe(302);
    expect(await groupsOf(t, cookie)).toEqual([slash128, ...valid.slice(0, 63)]);
  });

  it('treats a string claim as one group, and a missing or wrong claim as none, never failing sign-in', async () => {
    const { idp, t } = await setup();
    idp.groups.set('kim', '/eng/sre');
    expect(await groupsOf(t, (await t.signInOidc(idp, 'kim')).cookie)).toEqual(['/eng/sre']);
    expect(await groupsOf(t, (await t.signInOidc(idp, 'lee')).cookie)).toEqual([]);
    const { idp: other, t: wrongClaim } = await setup({ config: { oidcGroupsClaim: 'roles' } });
    other.groups.set('max', ['/ops']);
    expect(await groupsOf(wrongClaim, (await wrongClaim.signInOidc(other, 'max')).cookie)).toEqual([]);
  });

  it('signs in with 500 groups in the token: groups live server-side, the cookie stays small', async () => {
    const { idp, t } = await setup();
    idp.groups.set(
      'ned',
      Array.from({ length: 500 }, (_, i) => `/org/department-${i}/team`),
    );
    const { cookie, callback } = await t.signInOidc(idp, 'ned');
    expect(callback.status).toBe(302);
    expect(cookie.length).toBe(43);
    expect(await groupsOf(t, cookie)).toHaveLength(64);
  });

  it('never gives a PAT the IdP groups', async () => {
    const { idp, t } = await setup();
    idp.groups.set('olga', ['/platform-admins']);
    const { cookie } = await t.signInOidc(idp, 'olga');
    await t.hub.ctx.database.db.updateTable('memberships').set({ role: 'member' }).execute();
    const pat = (await t.request('POST', '/api/pats', { as: { cookie }, body: { name: 'script' } })).json<{
      token: string;
    }>().token;
    const viaPat = (await t.request('GET', '/api/account', { as: { pat } })).json<{
      idpGroups: string[];
      clusterIdentity: { groups: string[] };
    }>();
    expect(viaPat.idpGroups).toEqual([]);
    expect(viaPat.clusterIdentity.groups).toEqual(['binnacle:role:member']);
  });
});

describe('back-channel logout', () => {
  it('ends the sessions of the IdP user, refuses replays, bad tokens and foreign audiences with 400', async () => {
    const { idp, t } = await setup();
    const first = await t.signInOidc(idp, 'pia');
    const second = await t.signInOidc(idp, 'pia');
    const other = await t.signInOidc(idp, 'quinn');
    const post = (logoutToken: string) =>
      t.request('POST', '/api/auth/oidc/backchannel-logout', {
        body: `logout_token=${logoutToken}`,
        origin: null,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    const token = await idp.signLogoutToken({ sub: 'pia', jti: 'logout-1' });
    const ended = await post(token);
    expect(ended.status, ended.body).toBe(200);
    expect(ended.json()).toEqual({ ended: 2 });
    for (const { cookie } of [first, second]) {
      expect((await t.request('GET', '/api/account', { as: { cookie } })).json()).toEqual({
        code: 'session_ended',
        error: 'the session ended (the identity provider signed you out); sign in again',
      });
    }
    expect((await t.request('GET', '/api/account', { as: { cookie: other.cookie } })).status).toBe(200);
    expect((await post(token)).status).toBe(400); // replay
    for (const bad of [
      await idp.signLogoutToken({ sub: 'quinn', nonce: 'n' }),
      await idp.signLogoutToken({ sub: 'quinn', events: {} }),
      await idp.signLogoutToken({}),
      await idp.signLogoutToken({ sub: 'quinn', audience: 'someone-else' }),
      'not-a-jwt',
    ]) {
      expect((await post(bad)).status).toBe(400);
    }
    expect((await t.request('GET', '/api/account', { as: { cookie: other.cookie } })).status).toBe(200);
  });

  it('with a sid, ends only the sessions of that IdP session', async () => {
    const { idp, t } = await setup();
    const first = await t.signInOidc(idp, 'rae');
    const second = await t.signInOidc(idp, 'rae');
    const sids = await t.hub.ctx.database.db.selectFrom('sessions').select('idp_sid').execute();
    const [sidOfFirst, sidOfSecond] = sids.map((row) => row.idp_sid);
    expect(sidOfFirst).toBeTruthy();
    expect(sidOfSecond).not.toBe(sidOfFirst); // two browsers, two IdP sessions
    const firstSid = (
      await t.hub.ctx.database.db
        .selectFrom('sessions')
        .select('idp_sid')
        .where('id_hash', '=', hashSecret(first.cookie))
        .executeTakeFirstOrThrow()
    ).idp_sid as string;
    const ended = await t.request('POST', '/api/auth/oidc/backchannel-logout', {
      body: `logout_token=${await idp.signLogoutToken({ sid: firstSid, jti: 'logout-sid' })}`,
      origin: null,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(ended.json()).toEqual({ ended: 1 });
    expect((await t.request('GET', '/api/account', { as: { cookie: first.cookie } })).status).toBe(401);
    expect((await t.request('GET', '/api/account', { as: { cookie: second.cookie } })).status).toBe(200);
  });
});
