import { openTerminal, startTestIdp, type TestIdp, testCluster } from '@binnacle/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindInNamespace, signInOverHttp, startTestAgent, type TestAgent } from '../../testing/index.ts';

/**
 * `--auth-mode oidc` end to end: the real IdP of the testkit on loopback, a real agent against the control
 * plane. The redirect URL names the agent as the browser would reach it; requests go to its real port.
 */
const publicUrl = 'http://agent.binnacle.test';
const cookieName = 'binnacle_agent_session';

let idp: TestIdp;
let agent: TestAgent;
let allowed: { name: string; remove: () => Promise<void> };
let other: { name: string; remove: () => Promise<void> };
let unbind: () => Promise<void>;

const get = (path: string, cookie?: string, accept = 'application/json') =>
  agent.request(path, {
    redirect: 'manual',
    headers: { accept, ...(cookie ? { cookie: `${cookieName}=${cookie}` } : {}) },
  });

/** Login → IdP (a person signs in there) → callback, checking the authorization request on the way. */
async function signIn(user: string, returnTo?: string) {
  const signedIn = await signInOverHttp(agent, idp, user, { returnTo });
  expect(signedIn.authorization.origin).toBe(idp.issuer);
  expect(signedIn.authorization.searchParams.get('code_challenge_method')).toBe('S256');
  expect(signedIn.authorization.searchParams.get('nonce')).toBeTruthy();
  const { callbackUrl } = signedIn;
  expect(`${callbackUrl.origin}${callbackUrl.pathname}`).toBe(`${publicUrl}/auth/callback`);
  return { ...signedIn, cookie: signedIn.session, setCookies: signedIn.callback.headers.getSetCookie() };
}

beforeAll(async () => {
  idp = await startTestIdp({
    hubUrl: publicUrl,
    clientId: 'binnacle-agent',
    callbackPath: '/auth/callback',
    backchannelPath: '/auth/backchannel-logout',
  });
  [agent, allowed, other] = await Promise.all([
    startTestAgent({
      config: {
        authMode: 'oidc',
        oidcIssuer: idp.issuer,
        oidcClientId: idp.clientId,
        oidcClientSecret: idp.clientSecret,
        oidcRedirectUrl: `${publicUrl}/auth/callback`,
      },
    }),
    testCluster().namespace('oidc-allowed'),
    testCluster().namespace('oidc-other'),
  ]);
  unbind = await bindInNamespace(allowed.name, { kind: 'User', name: 'ada@example.com' });
});

afterAll(async () => {
  await unbind?.();
  await Promise.all([agent?.close(), allowed?.remove(), other?.remove()]);
  await idp?.close();
});

describe('--auth-mode oidc', () => {
  it('signs in through the IdP and reads as the user: pods where a RoleBinding names them, 403 elsewhere', async () => {
    idp.groups.set('ada', ['/platform', 'has space']);
    const { callback, cookie, setCookies } = await signIn('ada', `/resources/pods?namespace=${allowed.name}`);
    expect(callback.status).toBe(302);
    expect(callback.headers.get('location')).toBe(`/resources/pods?namespace=${allowed.name}`);
    expect(setCookies.find((c) => c.startsWith(cookieName))).toMatch(/HttpOnly/i);
    expect(setCookies.find((c) => c.startsWith(cookieName))).toMatch(/SameSite=Lax/i);
    expect(await (await get('/api/auth/me', cookie)).json()).toEqual({
      authEnabled: true,
      authMode: 'oidc',
      username: 'ada@example.com',
      groups: ['/platform'],
    });
    const inside = await get(`/api/resources/pods?namespace=${allowed.name}`, cookie);
    expect(inside.status, await inside.clone().text()).toBe(200);
    const outside = await get(`/api/resources/pods?namespace=${other.name}`, cookie);
    expect(outside.status).toBe(403);
    expect(await outside.json()).toMatchObject({ code: 'forbidden' });
  });

  it('refuses someone the IdP puts in a system: group with 403, however their session was opened', async () => {
    idp.groups.set('mallory', ['system:masters']);
    const { cookie } = await signIn('mallory');
    const read = await get(`/api/resources/pods?namespace=${allowed.name}`, cookie);
    expect(read.status).toBe(403);
    expect(await read.json()).toMatchObject({ code: 'forbidden', error: expect.stringContaining('system:') });
  });

  it('holds socket handshakes with the session cookie to its own origin (no cross-site WebSocket hijacking)', async () => {
    const { cookie } = await signIn('ada');
    const exec = `${agent.url}/api/pods/${allowed.name}/no-such-pod/exec`;
    const open = (origin: string) =>
      openTerminal(exec, { cookie: `${cookieName}=${cookie}`, origin }).then(
        () => 'opened',
        (refusal: Error) => refusal.message,
      );
    expect(await open('http://other.binnacle.test')).toMatch(/403 .*"code":"origin_rejected"/);
    // From its own pages the handshake goes on, to what RBAC says: ada may not exec in that namespace.
    expect(await open(publicUrl)).toMatch(/403 .*"code":"forbidden"/);
  });

  it('answers 401 to API calls without a session, sends pages to /auth/login, keeps /api/health open', async () => {
    const api = await get('/api/resources/pods');
    expect(api.status).toBe(401);
    expect(await api.json()).toMatchObject({ code: 'unauthenticated' });
    const page = await get('/topology?namespace=x', undefined, 'text/html');
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe(
      `/auth/login?returnTo=${encodeURIComponent('/topology?namespace=x')}`,
    );
    expect((await get('/api/health')).status).toBe(200);
    expect(await (await get('/api/auth/me')).json()).toEqual({ authEnabled: true, authMode: 'oidc' });
    expect((await get('/api/resources/pods', 'not-a-session')).status).toBe(401);
  });

  it('never redirects off the agent after sign-in, and refuses a replayed callback', async () => {
    const hostile = await signIn('carol', '//evil.example/x');
    expect(hostile.callback.headers.get('location')).toBe('/');
    const replay = await agent.request(`${hostile.callbackUrl.pathname}${hostile.callbackUrl.search}`, {
      redirect: 'manual',
      headers: { cookie: hostile.loginCookie },
    });
    expect(replay.status).toBe(400);
  });

  it('logout ends the session and redirects to the IdP (RP-initiated, id_token_hint)', async () => {
    const { cookie } = await signIn('erin');
    const out = await get('/auth/logout', cookie);
    expect(out.status).toBe(302);
    const logoutUrl = new URL(String(out.headers.get('location')));
    expect(logoutUrl.origin).toBe(idp.issuer);
    expect(logoutUrl.searchParams.get('id_token_hint')).toMatch(/^ey/);
    expect(logoutUrl.searchParams.get('post_logout_redirect_uri')).toBe(`${publicUrl}/`);
    expect((await get('/api/resources/pods', cookie)).status).toBe(401);
  });

  it('back-channel logout (a logout token signed by the IdP) ends that session; forged and replayed tokens are refused', async () => {
    const { cookie } = await signIn('frank');
    const me = async () =>
      ((await (await get('/api/auth/me', cookie)).json()) as { username?: string }).username;
    expect(await me()).toBe('frank@example.com');
    const post = (token: string) =>
      agent.request('/auth/backchannel-logout', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ logout_token: token }).toString(),
      });
    const otherAudience = await idp.signLogoutToken({ sub: 'frank', audience: 'someone-else' });
    expect((await post(otherAudience)).status).toBe(400);
    const withNonce = await idp.signLogoutToken({ sub: 'frank', nonce: 'n' });
    expect((await post(withNonce)).status).toBe(400);
    expect(await me()).toBe('frank@example.com');
    const token = await idp.signLogoutToken({ sub: 'frank' });
    const ended = await post(token);
    expect(ended.status).toBe(200);
    expect(await ended.json()).toEqual({ ended: 1 });
    const after = await get('/api/resources/pods', cookie);
    expect(after.status).toBe(401);
    expect((await post(token)).status).toBe(400);
  });
});
