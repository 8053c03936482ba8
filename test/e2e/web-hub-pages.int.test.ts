import { startTestAgent, type TestAgent } from '@binnacle/agent/testing';
import {
  docsScreenshot,
  type HubProcess,
  hubProcessBreakGlass,
  launchBrowser,
  seriousA11yViolations,
  spawnHub,
} from '@binnacle/testkit';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The hub's own pages in Chromium, against a real `binnacle hub` process at its public origin: signing in as
 * the break-glass admin (the first to sign in owns the organization), clusters with their agents' connection,
 * the connect page, access tokens, signing out.
 */
let hub: HubProcess;
let browser: Browser;
let page: Page;
const agents: TestAgent[] = [];

beforeAll(async () => {
  [hub, browser] = await Promise.all([spawnHub(), launchBrowser()]);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  page = await context.newPage();
});
afterAll(async () => {
  await Promise.all([browser?.close(), ...agents.map((a) => a.close())]);
  await hub?.stop();
});

describe("the hub's pages", () => {
  it('sends a visitor without a session to sign in, and back where they were going afterwards', async () => {
    await page.goto(`${hub.publicUrl}/tokens`);
    await page.waitForURL(/\/sign-in\?returnTo=%2Ftokens/);
    const form = page.getByRole('form', { name: 'Break-glass admin' });
    await form.getByLabel('E-mail').fill(hubProcessBreakGlass.email);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'hub-sign-in');
    await form.getByLabel('Password').fill('not the password');
    await form.getByRole('button', { name: 'Sign in' }).click();
    await form.getByRole('alert').getByText('wrong e-mail or password').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await form.getByLabel('Password').fill(hubProcessBreakGlass.password);
    await form.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Access tokens' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/tokens');
  });

  it('says in words why a sign-in through the identity provider failed', async () => {
    const callback = await fetch(`${hub.url}/api/auth/oidc/callback?code=c&state=s`, {
      headers: { accept: 'text/html' },
      redirect: 'manual',
    });
    expect(callback.status).toBe(302);
    const landing = callback.headers.get('location') ?? '';
    expect(landing).toMatch(/^\/sign-in\?error=/);
    // A script (no HTML accepted) still gets the error itself.
    const scripted = await fetch(`${hub.url}/api/auth/oidc/callback?code=c&state=s`);
    expect(scripted.status).toBeGreaterThanOrEqual(400);
    expect(await scripted.json()).toMatchObject({
      code: new URL(landing, hub.url).searchParams.get('error'),
    });
    const fresh = await browser.newPage();
    await fresh.goto(`${hub.publicUrl}/sign-in?error=idp_unavailable`);
    await fresh.getByRole('alert').getByText('The identity provider did not answer').waitFor();
    await fresh.close();
  });

  it('mints an access token shown once, which then works as a bearer token, and revokes it', async () => {
    await page.goto(`${hub.publicUrl}/tokens`);
    await page.getByLabel('Name').fill('ci-deploys');
    await page.getByLabel('Expires').selectOption({ label: '30 days' });
    await page.getByRole('button', { name: 'Mint' }).click();
    const token = await page.getByLabel('Token ci-deploys').inputValue();
    expect(token).toMatch(/^bnp_/);
    const asToken = () => fetch(`${hub.url}/api/account`, { headers: { authorization: `Bearer ${token}` } });
    const account = await asToken();
    expect(account.status).toBe(200);
    expect(await account.json()).toMatchObject({ user: { email: hubProcessBreakGlass.email } });
    await page.getByRole('cell', { name: 'ci-deploys', exact: true }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'hub-tokens');
    await page.getByRole('button', { name: 'Revoke ci-deploys' }).click();
    await page
      .getByRole('dialog', { name: 'Revoke ci-deploys?' })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await page.getByText('No tokens yet.').waitFor();
    expect((await asToken()).status).toBe(401);
  });

  it("registers a cluster, shows it connected as its agent comes up, and opens the agent's pages", async () => {
    await page.goto(`${hub.publicUrl}/`);
    await page.getByRole('heading', { name: 'Clusters', exact: true }).waitFor();
    await page.getByText('No cluster yet.').waitFor();
    await page.getByLabel(/^Name/).fill('staging');
    await page.getByRole('button', { name: 'Register' }).click();
    const token = await page.getByLabel('Agent token of staging').inputValue();
    const commands = (await page.getByRole('region', { name: 'Install commands' }).textContent()) ?? '';
    expect(commands).toContain(`--from-literal=cluster-token=${token}`);
    expect(commands).toContain('helm install binnacle-agent charts/binnacle-agent');
    const row = page.getByRole('row').filter({ hasText: 'staging' });
    await row.getByText('Never connected').waitFor();
    agents.push(await startTestAgent({ config: { cloudUrl: hub.url, clusterToken: token } }));
    // No reload: the list follows the agent's tunnel.
    await row.getByText('Connected', { exact: true }).waitFor({ timeout: 30_000 });
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'hub-clusters');
    await row.getByRole('link', { name: 'staging' }).click();
    await page.waitForURL(/\/c\/[^/]+\/$/);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  });

  it('signs out: the session ends and its pages send to sign-in again', async () => {
    await page.goto(`${hub.publicUrl}/`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in/);
    await page.goto(`${hub.publicUrl}/`);
    await page.waitForURL(/\/sign-in\?returnTo=/);
  });
});
