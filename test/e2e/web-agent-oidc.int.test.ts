import { bindInNamespace, startTestAgent, type TestAgent } from '@binnacle/agent/testing';
import {
  docsScreenshot,
  freePort,
  launchBrowser,
  seriousA11yViolations,
  startTestIdp,
  type TestIdp,
  testCluster,
} from '@binnacle/testkit';
import { CoreV1Api } from '@kubernetes/client-node';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The web UI of an agent that signs people in itself (`--auth-mode oidc`), in Chromium against the testkit's
// IdP: its sign-in and consent forms are filled in the browser. The agent is reached as localhost and the IdP
// as 127.0.0.1, two sites, as an agent and its IdP are: the return from the IdP is a cross-site navigation.
const group = '/ops-web';
let agentUrl: string;
let idp: TestIdp;
let agent: TestAgent;
let browser: Browser;
let allowed: { name: string; remove: () => Promise<void> };
let other: { name: string; remove: () => Promise<void> };
let unbind: () => Promise<void>;

beforeAll(async () => {
  // The IdP registers the agent's redirect URI before the agent starts, so the port is chosen first.
  const port = await freePort();
  agentUrl = `http://localhost:${port}`;
  idp = await startTestIdp({
    hubUrl: agentUrl,
    clientId: 'binnacle-agent',
    callbackPath: '/auth/callback',
    backchannelPath: '/auth/backchannel-logout',
  });
  [agent, browser, allowed, other] = await Promise.all([
    startTestAgent({
      config: {
        port,
        authMode: 'oidc',
        oidcIssuer: idp.issuer,
        oidcClientId: idp.clientId,
        oidcClientSecret: idp.clientSecret,
        oidcRedirectUrl: `${agentUrl}/auth/callback`,
      },
    }),
    launchBrowser(),
    testCluster().namespace('web-oidc'),
    testCluster().namespace('web-oidc-other'),
  ]);
  // Access comes from the person's IdP group, bound like any Kubernetes group.
  unbind = await bindInNamespace(allowed.name, { kind: 'Group', name: group });
  const core = testCluster().kubeConfig('admin').makeApiClient(CoreV1Api);
  await Promise.all(
    [allowed, other].map((ns) =>
      core.createNamespacedConfigMap({
        namespace: ns.name,
        body: { metadata: { name: `${ns.name}-notes` } },
      }),
    ),
  );
});
afterAll(async () => {
  await unbind?.();
  await Promise.all([browser?.close(), agent?.close(), allowed?.remove(), other?.remove()]);
  await idp?.close();
});

/** A fresh browser profile; the IdP's pages import a web font, which stays off the network. */
async function freshPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.route(/^https:\/\/fonts\.googleapis\.com\//, (route) => route.abort());
  return context.newPage();
}

/** On the IdP's sign-in page: log in as `login` (any password), then grant the consent it asks for. */
async function signInAtIdp(page: Page, login: string): Promise<void> {
  expect(page.url().startsWith(`${idp.issuer}/interaction/`), page.url()).toBe(true);
  await page.getByPlaceholder('Enter any login').fill(login);
  await page.getByPlaceholder('and password').fill('any');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** Opens `path` on the agent in a fresh profile and signs in there as `login`; resolves back on the page. */
async function signedInPage(login: string, path: string): Promise<Page> {
  idp.groups.set(login, [group]);
  const page = await freshPage();
  await page.goto(`${agentUrl}${path}`);
  await signInAtIdp(page, login);
  await page.waitForURL(`${agentUrl}${path}`);
  await page.getByRole('banner').getByText(`${login}@example.com`, { exact: true }).waitFor();
  return page;
}

const sessionCookie = async (page: Page) =>
  (await page.context().cookies(agentUrl)).find((c) => c.name === 'binnacle_agent_session');

/** /api/auth/me with the page's cookies: the username while the session lives. */
const me = async (page: Page) =>
  (await (await page.context().request.get(`${agentUrl}/api/auth/me`)).json()) as { username?: string };

describe('the web UI of an agent in oidc mode', () => {
  it('sends a new browser to the IdP, and back signed in: the banner names the person, reads are theirs', async () => {
    const page = await signedInPage('ada', `/resources/configmaps?namespace=${allowed.name}`);
    const banner = page.getByRole('banner');
    expect(await banner.getByRole('link', { name: 'Sign out' }).count()).toBe(1);
    await page.getByRole('link', { name: `${allowed.name}-notes` }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'agent-sign-in');
    // On http the cookie cannot be Secure; the rest of its protection holds.
    expect(await sessionCookie(page)).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false });

    await page.goto(`${agentUrl}/resources/configmaps?namespace=${other.name}`);
    const refusal = page.getByRole('alert');
    await refusal.getByText('You may not see configmaps').waitFor();
    expect(await refusal.textContent()).toContain('ada@example.com cannot list configmaps');
    expect(await refusal.textContent()).toContain('code: forbidden');
    await page.context().close();
  });

  it('signs out at the IdP too (RP-initiated logout); the UI then asks for a sign-in again', async () => {
    const page = await signedInPage('erin', '/');
    const session = await sessionCookie(page);
    await page.getByRole('banner').getByRole('link', { name: 'Sign out' }).click();
    await page.waitForURL(`${idp.issuer}/session/end?**`);
    expect(new URL(page.url()).searchParams.get('post_logout_redirect_uri')).toBe(`${agentUrl}/`);
    expect(await sessionCookie(page)).toBeUndefined();
    const stale = await fetch(`${agentUrl}/api/auth/me`, {
      headers: { cookie: `binnacle_agent_session=${session?.value}` },
    });
    expect(await stale.json()).toEqual({ authEnabled: true, authMode: 'oidc' });

    await page.getByRole('button', { name: 'Yes, sign me out' }).click();
    // Back at the agent, which has nobody signed in and sends the browser to the IdP's sign-in form.
    await page.getByPlaceholder('Enter any login').waitFor();
    expect(page.url().startsWith(`${idp.issuer}/interaction/`), page.url()).toBe(true);
    expect(await me(page)).toEqual({ authEnabled: true, authMode: 'oidc' });
    await page.context().close();
  });

  it('ends the browser’s session on a back-channel logout: the open page says so, and signing in again works', async () => {
    const page = await signedInPage('grace', '/');
    const before = await sessionCookie(page);
    const logout = await fetch(`${agentUrl}/auth/backchannel-logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ logout_token: await idp.signLogoutToken({ sub: 'grace' }) }).toString(),
    });
    expect(await logout.json()).toEqual({ ended: 1 });
    expect(await me(page)).toEqual({ authEnabled: true, authMode: 'oidc' });

    // The page stays open: its next request is refused, and the banner stops naming someone signed out.
    await page.getByRole('link', { name: 'Timeline', exact: true }).click();
    const banner = page.getByRole('banner');
    await banner.getByRole('status').getByText('Your session ended').waitFor();
    expect(await banner.getByText('grace@example.com').count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'agent-session-ended');

    // The way back is a page load through the agent's sign-in; the IdP, whose own session still lives, signs
    // grace straight back in to a new session, on the page she was on.
    const visited: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest()) visited.push(request.url());
    });
    await banner.getByRole('link', { name: 'Sign in again' }).click();
    await banner.getByText('grace@example.com', { exact: true }).waitFor();
    expect(visited[0]).toBe(`${agentUrl}/auth/login?returnTo=%2Ftimeline`);
    expect(visited.some((url) => url.startsWith(`${idp.issuer}/auth?`))).toBe(true);
    expect(page.url()).toBe(`${agentUrl}/timeline`);
    expect((await sessionCookie(page))?.value).not.toBe(before?.value);
    await page.context().close();
  });
});
