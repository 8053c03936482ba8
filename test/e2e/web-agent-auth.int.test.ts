import { bindInNamespace, startTestAgent, type TestAgent } from '@binnacle/agent/testing';
import { launchBrowser, openPage, seriousA11yViolations, testCluster } from '@binnacle/testkit';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The web UI of an agent behind an authenticating proxy (`--auth-mode proxy`): Chromium stands in for the proxy,
// sending the identity headers from the one trusted address, and the agent acts as that person.
const person = { user: 'web-ada@example.com', group: 'team-web' };
let agent: TestAgent;
let browser: Browser;
let ns: { name: string; remove: () => Promise<void> };
let unbind: () => Promise<void>;

beforeAll(async () => {
  [agent, browser, ns] = await Promise.all([
    startTestAgent({ config: { authMode: 'proxy', authProxyAddresses: '127.0.0.1' } }),
    launchBrowser(),
    testCluster().namespace('web-auth'),
  ]);
  unbind = await bindInNamespace(ns.name, { kind: 'Group', name: person.group });
});
afterAll(async () => {
  await unbind?.();
  await Promise.all([browser?.close(), agent?.close()]);
  await ns?.remove();
});

describe('the web UI behind an authenticating proxy', () => {
  it('shows who is signed in, with no sign-out (the proxy owns the session), and their namespace', async () => {
    const page = await openPage(browser, `${agent.url}/?namespace=${ns.name}`, 'light', {
      'x-forwarded-user': person.user,
      'x-forwarded-groups': person.group,
    });
    const banner = page.getByRole('banner');
    await banner.getByText(person.user, { exact: true }).waitFor();
    expect(await banner.getByRole('link', { name: 'Sign out' }).count()).toBe(0);
    await page.getByRole('heading', { name: /^Dashboard/ }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('answers a browser without the headers 401, naming the missing header, and shows no page', async () => {
    const page = await openPage(browser, `${agent.url}/`);
    const response = await page.reload();
    expect(response?.status()).toBe(401);
    expect(await response?.json()).toEqual({
      error: expect.stringContaining('no x-forwarded-user header'),
      code: 'unauthenticated',
    });
  });
});
