import { describe, expect, it } from 'vitest';
import { oidcHubPerTest, startTestHub, type TestHub, testHubUrl } from '../../testing/index.ts';

const setup = oidcHubPerTest();

const account = (t: TestHub, cookie: string) => t.request('GET', '/api/account', { as: { cookie } });
type Account = {
  user: { email: string };
  currentOrg: { id: string; role: string };
  idpGroups: string[];
  clusterIdentity: { user: string; groups: string[] };
};

describe('OIDC sign-in', () => {
  it('sign-in: the first user bootstraps the organization as owner, later users join as the default role', async () => {
    const { idp, t } = await setup();
    idp.groups.set('alice', ['/platform-admins']);
    const alice = await t.signInOidc(idp, 'alice', '/c/x/api/health');
    expect(alice.callback.status, alice.callback.body).toBe(302);
    expect(alice.callback.headers.location).toBe('/c/x/api/health');
    const first = (await account(t, alice.cookie)).json<Account>();
    expect(first).toMatchObject({
      user: { email: 'alice@example.com' },
      currentOrg: { role: 'owner' },
      idpGroups: ['/platform-admins'],
    });
    expect(first.clusterIdentity).toEqual({
      user: 'binnacle:user:alice@example.com',
      groups: ['binnacle:role:owner', 'binnacle:idp:/platform-admins'],
    });
    const bob = await t.signInOidc(idp, 'bob');
    expect(bob.callback.headers.location).toBe('/');
    expect((await account(t, bob.cookie)).json<Account>().currentOrg).toEqual({
      ...first.currentOrg,
      role: 'member',
    });
  });

  it('later users join with the configured default role (oidcDefaultRole)', async () => {
    const { idp, t } = await setup({ config: { oidcDefaultRole: 'viewer' } });
    const first = await t.signInOidc(idp, 'olga');
    expect((await account(t, first.cookie)).json<Account>().currentOrg.role).toBe('owner');
    const later = await t.signInOidc(idp, 'pete');
    expect((await account(t, later.cookie)).json<Account>().currentOrg.role).toBe('viewer');
  });

  it('never redirects off the hub after sign-in (open redirect)', async () => {
    const { idp, t } = await setup();
    for (const hostile of ['//evil.example/x', 'https://evil.example', '/\\evil.example']) {
      const signedIn = await t.signInOidc(idp, 'carol', hostile);
      expect(signedIn.callback.headers.location, hostile).toBe('/');
    }
  });

  it('refuses a replayed callback, a callback from another browser, and keeps parallel sign-ins apart', async () => {
    const { idp, t } = await setup();
    const first = await t.request('GET', '/api/auth/oidc/login');
    const second = await t.request('GET', '/api/auth/oidc/login');
    const cookieOf = (answer: typeof first) => String(answer.headers['set-cookie']).split(';')[0] as string;
    expect(cookieOf(first).split('=')[0]).not.toBe(cookieOf(second).split('=')[0]);
    const { signInAtIdp } = await import('@binnacle/testkit');
    const callback = new URL(await signInAtIdp(idp, String(first.headers.location), 'dave'));
    const path = `${callback.pathname}${callback.search}`;
    const stranger = await t.request('GET', path, { headers: { cookie: cookieOf(second) } });
    expect(stranger.status).toBe(400); // the state was spent by this attempt too
    const secondCallback = new URL(await signInAtIdp(idp, String(second.headers.location), 'dave'));
    const ok = await t.request('GET', `${secondCallback.pathname}${secondCallback.search}`, {
      headers: { cookie: cookieOf(second) },
    });
    expect(ok.status, ok.body).toBe(302);
    const replay = await t.request('GET', `${secondCallback.pathname}${secondCallback.search}`, {
      headers: { cookie: cookieOf(second) },
    });
    expect(replay.status).toBe(400);
    expect(replay.json().error).toMatch(/state/);
  });

  it('reports an IdP refusal such as invalid_scope as sign_in_failed', async () => {
    const { t } = await setup();
    const login = await t.request('GET', '/api/auth/oidc/login');
    const state = new URL(String(login.headers.location)).searchParams.get('state');
    const refused = await t.request('GET', `/api/auth/oidc/callback?error=invalid_scope&state=${state}`);
    expect(refused.status).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'sign_in_failed' });
    expect(refused.json().error).toMatch(/invalid_scope/);
  });

  it('answers 503 while the IdP is down at sign-in, and break-glass still works', async () => {
    const { idp, t } = await setup();
    await idp.stop();
    const login = await t.request('GET', '/api/auth/oidc/login');
    expect(login.status).toBe(503);
    expect(login.json().code).toBe('idp_unavailable');
    expect((await t.signInBreakGlass()).cookie).toBeTruthy();
    await idp.start();
  });

  it('answers 404 when OIDC is not configured', async () => {
    const t = await startTestHub();
    try {
      expect((await t.request('GET', '/api/auth/oidc/login')).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});

describe('OIDC sign-out', () => {
  it('sign-out with end_session_endpoint returns the IdP logout URL carrying id_token_hint', async () => {
    const { idp, t } = await setup();
    const { cookie } = await t.signInOidc(idp, 'erin');
    const out = await t.request('POST', '/api/auth/signout', { as: { cookie } });
    const logoutUrl = new URL(out.json<{ logoutUrl: string }>().logoutUrl);
    expect(logoutUrl.origin).toBe(idp.issuer);
    expect(logoutUrl.searchParams.get('id_token_hint')).toMatch(/^ey/);
    expect(logoutUrl.searchParams.get('post_logout_redirect_uri')).toBe(testHubUrl);
    expect((await account(t, cookie)).status).toBe(401);
  });

  it('sign-out without end_session_endpoint returns no logout URL', async () => {
    const { idp, t } = await setup({ idp: { endSession: false } });
    const { cookie } = await t.signInOidc(idp, 'frank');
    const out = await t.request('POST', '/api/auth/signout', { as: { cookie } });
    expect(out.json()).toEqual({ signedOut: true });
  });
});
