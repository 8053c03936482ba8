import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverLogger } from '@binnacle/common/server';
import { startTestIdp, type TestIdp } from '@binnacle/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInOverHttp, startTestAgent, type TestAgent } from '../../testing/index.ts';

/**
 * The secrets of the agent's own sign-in (docs/architecture.md §4.8), on an agent whose public URL is https (TLS ends in
 * front of it) and that logs all it can: trace level, every request as with --debug-events, through the
 * production logger and its redaction. The client secret comes from a file, as in a real deployment.
 */
const publicUrl = 'https://agent.binnacle.test';
const cookieName = '__Host-binnacle_agent_session';
const clientSecret = randomBytes(24).toString('base64url');
const lines: string[] = [];

let idp: TestIdp;
let agent: TestAgent;
let secretDir: string;

beforeAll(async () => {
  idp = await startTestIdp({
    hubUrl: publicUrl,
    clientId: 'binnacle-agent',
    clientSecret,
    callbackPath: '/auth/callback',
    backchannelPath: '/auth/backchannel-logout',
  });
  secretDir = await mkdtemp(join(tmpdir(), 'binnacle-oidc-secret-'));
  await writeFile(join(secretDir, 'client-secret'), `${clientSecret}\n`);
  agent = await startTestAgent({
    config: {
      authMode: 'oidc',
      oidcIssuer: idp.issuer,
      oidcClientId: idp.clientId,
      oidcClientSecretFile: join(secretDir, 'client-secret'),
      oidcRedirectUrl: `${publicUrl}/auth/callback`,
      debugEvents: true,
    },
    log: serverLogger('trace', { write: (line: string) => void lines.push(line) }),
  });
});

afterAll(async () => {
  await agent?.close();
  await idp?.close();
  if (secretDir) await rm(secretDir, { recursive: true, force: true });
});

const withSession = (session: string) => ({ cookie: `${cookieName}=${session}` });
const cookieValue = (cookie: string) => cookie.slice(cookie.indexOf('=') + 1);

describe('the secrets of --auth-mode oidc', () => {
  it('reach no log line: sign-in, a refused code exchange, logout and back-channel logout', async () => {
    const secrets: Record<string, string> = {
      'client secret': clientSecret,
      // How the client authenticates at the token endpoint with client_secret_basic.
      'client credentials': Buffer.from(`${idp.clientId}:${clientSecret}`).toString('base64'),
    };
    const ada = await signInOverHttp(agent, idp, 'ada', { cookieName });
    expect(ada.callback.status).toBe(302);
    secrets['authorization code'] = String(ada.callbackUrl.searchParams.get('code'));
    secrets['sign-in binding cookie'] = cookieValue(ada.loginCookie);
    secrets['session cookie'] = ada.session;
    const me = await agent.request('/api/auth/me', { headers: withSession(ada.session) });
    expect(await me.json()).toMatchObject({ username: 'ada@example.com' });

    idp.tokenFault = 'invalid_client';
    const refused = await signInOverHttp(agent, idp, 'bob', { cookieName });
    idp.tokenFault = 'none';
    expect(refused.callback.status).toBe(401);
    expect(await refused.callback.json()).toMatchObject({ code: 'sign_in_failed' });
    secrets['refused authorization code'] = String(refused.callbackUrl.searchParams.get('code'));

    const out = await agent.request('/auth/logout', {
      redirect: 'manual',
      headers: withSession(ada.session),
    });
    const idToken = new URL(String(out.headers.get('location'))).searchParams.get('id_token_hint');
    expect(idToken).toMatch(/^ey/);
    secrets['ID token'] = String(idToken);

    const carol = await signInOverHttp(agent, idp, 'carol', { cookieName });
    secrets['second session cookie'] = carol.session;
    secrets['logout token'] = await idp.signLogoutToken({ sub: 'carol' });
    const ended = await agent.request('/auth/backchannel-logout', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ logout_token: secrets['logout token'] }).toString(),
    });
    expect(await ended.json()).toEqual({ ended: 1 });

    const logged = lines.join('\n');
    // The capture saw the flow: the callback's request lines and the refused exchange's warning.
    expect(logged).toContain('/auth/callback');
    expect(logged).toContain('OIDC code exchange failed');
    for (const [what, secret] of Object.entries(secrets)) {
      expect(secret.length, what).toBeGreaterThan(8);
      expect(logged.includes(secret), `the ${what} is in a log line`).toBe(false);
    }
  });

  it('keeps its cookies to itself on https: __Host-, Secure, HttpOnly, SameSite=Lax, Path=/', async () => {
    const login = await agent.request('/auth/login', { redirect: 'manual' });
    const binding = login.headers.getSetCookie();
    expect(binding).toEqual([expect.stringMatching(/^__Host-binnacle_oidc_\w+=/)]);
    const signedIn = await signInOverHttp(agent, idp, 'dora', { cookieName });
    // The callback clears the sign-in's binding cookie and sets the session's.
    const callback = signedIn.callback.headers.getSetCookie();
    expect(callback.filter((c) => c.startsWith(`${cookieName}=`))).toHaveLength(1);
    const out = await agent.request('/auth/logout', {
      redirect: 'manual',
      headers: withSession(signedIn.session),
    });
    const cleared = out.headers.getSetCookie();
    expect(cleared).toEqual([expect.stringMatching(new RegExp(`^${cookieName}=;.*Max-Age=0`))]);
    for (const cookie of [...binding, ...callback, ...cleared]) {
      expect(cookie).toMatch(/; Secure/);
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; SameSite=Lax/);
      expect(cookie).toMatch(/; Path=\/(;|$)/);
      expect(cookie).not.toMatch(/Domain=/i);
    }
  });
});
