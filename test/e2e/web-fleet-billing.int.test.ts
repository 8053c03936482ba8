import { startTestAgent, type TestAgent } from '@binnacle/agent/testing';
import {
  createCluster,
  deploymentBody,
  docsScreenshot,
  type HubOwner,
  type HubProcess,
  hubProcessBreakGlass,
  launchBrowser,
  openPage,
  type StripeMock,
  seriousA11yViolations,
  signInOwner,
  spawnHub,
  startStripeMock,
  testCluster,
  waitUntil,
} from '@binnacle/testkit';
import { AppsV1Api, CoreV1Api, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The hub's Fleet and Billing pages in Chromium against real `binnacle hub` processes. The fleet hub has two
 * clusters: `live`, whose agent runs on the shared control plane, and `stopped`, whose agent connected once and
 * was stopped. The owner reads one namespace of `live` (a RoleBinding for them), seeded with a TLS Secret that does
 * not parse, a Deployment with a chart label and a ConfigMap to search for. That hub has no billing; a second one
 * bills through stripe-mock, and the browser's trip to Stripe's hosted pages is answered by the test. The fleet hub
 * has no OIDC either, and `stopped` is offline: its pages say what that leaves a person to do (last in the file,
 * as its agent comes back at the end).
 */
const cluster = testCluster();
const rbac = cluster.kubeConfig('admin').makeApiClient(RbacAuthorizationV1Api);
const binding = `web-fleet-owner-${process.pid}`;
const marker = `fleet-ui-${Date.now().toString(36)}`;
let hub: HubProcess;
let owner: HubOwner;
let browser: Browser;
let live: { id: string; token: string };
let stopped: { id: string; token: string };
let ns: { name: string; remove: () => Promise<void> };
const agents: TestAgent[] = [];

/** What the owner sees through the live cluster's own routes (which count against no fleet limit). */
const throughTunnel = async (path: string) => {
  const res = await fetch(`${hub.url}/c/${live.id}${path}`, { headers: { cookie: owner.cookie } });
  return res.ok ? JSON.stringify(await res.json()) : '';
};

async function seed(namespace: string) {
  const admin = cluster.kubeConfig('admin');
  const core = admin.makeApiClient(CoreV1Api);
  const pem = '-----BEGIN CERTIFICATE-----\nbm90\n-----END CERTIFICATE-----\n';
  await core.createNamespacedSecret({
    namespace,
    body: {
      metadata: { name: 'broken-tls' },
      type: 'kubernetes.io/tls',
      data: {
        'tls.crt': Buffer.from(pem).toString('base64'),
        'tls.key': Buffer.from('no').toString('base64'),
      },
    },
  });
  await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: marker } } });
  const deployment = deploymentBody('fleet-web', 0);
  deployment.metadata = { name: 'fleet-web', labels: { 'helm.sh/chart': 'fleet-demo-1.2.3' } };
  await admin.makeApiClient(AppsV1Api).createNamespacedDeployment({ namespace, body: deployment });
  await rbac.createNamespacedRoleBinding({
    namespace,
    body: {
      metadata: { name: binding },
      subjects: [
        {
          kind: 'User',
          name: `binnacle:user:${hubProcessBreakGlass.email}`,
          apiGroup: 'rbac.authorization.k8s.io',
        },
      ],
      roleRef: { kind: 'ClusterRole', name: 'admin', apiGroup: 'rbac.authorization.k8s.io' },
    },
  });
}

beforeAll(async () => {
  [hub, browser, ns] = await Promise.all([spawnHub(), launchBrowser(), cluster.namespace('web-fleet')]);
  owner = await signInOwner(hub);
  await seed(ns.name);
  live = await createCluster(hub, owner, 'live');
  stopped = await createCluster(hub, owner, 'stopped');
  agents.push(await startTestAgent({ config: { cloudUrl: hub.url, clusterToken: live.token } }));
  const gone = await startTestAgent({ config: { cloudUrl: hub.url, clusterToken: stopped.token } });
  const connected = async () => {
    const res = await fetch(`${hub.url}/api/clusters`, { headers: { cookie: owner.cookie } });
    const { items } = (await res.json()) as { items: { id: string; connected: boolean }[] };
    return new Map(items.map((c) => [c.id, c.connected]));
  };
  await waitUntil('both agents connected', async () => (await connected()).get(stopped.id) === true, {
    timeoutMs: 30_000,
  });
  await gone.close();
  await waitUntil('the stopped agent gone', async () => (await connected()).get(stopped.id) === false, {
    timeoutMs: 30_000,
  });
  // The live agent has synced what the views show, and the owner's binding is in force.
  await waitUntil(
    'the seeded objects through the live tunnel',
    async () =>
      (await throughTunnel(`/api/secrets/certificate-expiry?namespace=${ns.name}`)).includes('broken-tls') &&
      (await throughTunnel(`/api/search?q=${marker}`)).includes(marker),
    { timeoutMs: 60_000, intervalMs: 500 },
  );
}, 180_000);
afterAll(async () => {
  await rbac.deleteNamespacedRoleBinding({ namespace: ns.name, name: binding }).catch(() => undefined);
  await Promise.all([browser?.close(), ...agents.map((a) => a.close()), ns?.remove()]);
  await hub?.stop();
});

/** A page of its own signed in as the hub's owner. */
const openAsOwner = (signedIn: HubOwner, url: string, scheme: 'light' | 'dark' = 'light') =>
  openPage(browser, url, scheme, { cookie: signedIn.cookie });

/** The per-cluster strip: live answered, stopped is offline and named among the failures. */
async function seeStatusStrip(page: Page) {
  const strip = page.getByRole('region', { name: 'Clusters asked' });
  const chip = (name: string) =>
    strip
      .getByRole('list', { name: 'Status of each cluster' })
      .getByRole('listitem')
      .filter({ hasText: name });
  await chip('live').getByText('ok', { exact: true }).waitFor();
  await chip('stopped').getByText('offline', { exact: true }).waitFor();
  await strip.getByRole('status').getByText('1 of 2 clusters did not answer').waitFor();
  const failures = strip.getByRole('list', { name: 'Clusters that did not answer' });
  expect(await failures.textContent()).toMatch(/^stopped: .*\(cluster_offline\)$/);
}

describe('the fleet page', () => {
  it("shows every cluster's problems and certificates, each row linking into its cluster, the stopped one named", async () => {
    const page = await openAsOwner(owner, `${hub.publicUrl}/fleet`);
    await page.getByRole('heading', { name: 'Fleet', exact: true }).waitFor();
    await seeStatusStrip(page);
    const problem = page.getByRole('link', { name: `${ns.name}/broken-tls` }).first();
    await problem.waitFor();
    expect(await problem.getAttribute('href')).toBe(
      `/c/${live.id}/resources/Secret/${ns.name}/broken-tls?namespace=${ns.name}`,
    );
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'fleet');

    // The tabs answer the keyboard: → from Problems opens Certificates.
    await page.getByRole('tab', { name: 'Problems' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForURL(/\/fleet\?tab=certs/);
    const cert = page
      .getByRole('row')
      .filter({ hasText: `${ns.name}/broken-tls` })
      .first();
    await cert.getByText('invalid', { exact: true }).waitFor();
    expect(await cert.getByRole('link', { name: `${ns.name}/broken-tls` }).getAttribute('href')).toBe(
      `/c/${live.id}/certificates?namespace=${ns.name}&q=broken-tls`,
    );
    await seeStatusStrip(page);

    await page.getByRole('tab', { name: 'Packages' }).click();
    await page.getByRole('row').filter({ hasText: 'fleet-demo' }).getByText('1.2.3').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Following a row opens the object in its cluster's own pages.
    await page.getByRole('tab', { name: 'Problems' }).click();
    await page
      .getByRole('link', { name: `${ns.name}/broken-tls` })
      .first()
      .click();
    await page.waitForURL(
      `${hub.publicUrl}/c/${live.id}/resources/Secret/${ns.name}/broken-tls?namespace=${ns.name}`,
    );
    await page.getByRole('heading', { name: `Secret ${ns.name}/broken-tls` }).waitFor({ timeout: 30_000 });
    await page.context().close();
  });

  it('reads in the dark theme too', async () => {
    const page = await openAsOwner(owner, `${hub.publicUrl}/fleet?tab=audit`, 'dark');
    await page.locator('html.dark').waitFor({ state: 'attached' });
    await seeStatusStrip(page);
    await page
      .getByRole('link', { name: `${ns.name}/fleet-web` })
      .first()
      .waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'fleet-dark');
    await page.context().close();
  });

  it('searches every cluster, and checks the words before asking the hub', async () => {
    const page = await openAsOwner(owner, `${hub.publicUrl}/fleet`);
    const form = page.getByRole('form', { name: 'Search every cluster' });
    const box = form.getByRole('searchbox', { name: 'Search every cluster' });
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/fleet/search')) asked.push(request.url());
    });
    await box.fill('   ');
    await box.press('Enter');
    await form.getByRole('alert').getByText('Type something to look for.').waitFor();
    await box.fill('x'.repeat(300));
    await form.getByRole('button', { name: 'Search', exact: true }).click();
    await form.getByRole('alert').getByText('At most 256 characters').waitFor();
    expect(asked).toEqual([]);

    await box.fill(marker);
    await box.press('Enter');
    await page.waitForURL(new RegExp(`/fleet\\?tab=search&q=${marker}`));
    const hit = page.getByRole('link', { name: `${ns.name}/${marker}` });
    await hit.waitFor();
    expect(await hit.getAttribute('href')).toBe(
      `/c/${live.id}/resources/ConfigMap/${ns.name}/${marker}?namespace=${ns.name}`,
    );
    await seeStatusStrip(page);
    expect(
      await page.getByRole('tab', { name: `Search: ${marker.slice(0, 24)}` }).getAttribute('aria-selected'),
    ).toBe('true');
    await box.fill('no-object-is-called-this');
    await box.press('Enter');
    await page
      .getByText('Nothing matches “no-object-is-called-this” in the clusters that answered')
      .waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('says when the hub rate-limits the fleet calls, and waits for the reader instead of retrying', async () => {
    const page = await openAsOwner(owner, `${hub.publicUrl}/settings/preferences`);
    // The owner's 30 fan-out calls a minute, used up.
    for (let call = 0; call < 31; call += 1) {
      const answer = await page.request.get(`${hub.publicUrl}/api/fleet/problems`);
      if (answer.status() === 429) break;
    }
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/fleet/')) asked.push(request.url());
    });
    await page.goto(`${hub.publicUrl}/fleet?tab=packages`);
    const alert = page.getByRole('alert').filter({ hasText: 'Rate limited' });
    await alert.getByText(/Rate limited, retry in \d+ s\./).waitFor();
    expect(await alert.getByRole('button', { name: 'Retry now' }).isDisabled()).toBe(true);
    // Three seconds later it has still asked only once.
    await page.waitForTimeout(3000);
    expect(asked).toHaveLength(1);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.context().close();
  });
});

describe('the billing page', () => {
  it('says plainly that billing is not configured on a self-hosted hub', async () => {
    const page = await openAsOwner(owner, `${hub.publicUrl}/settings/billing`);
    await page.getByRole('status').getByText('Billing is not configured on this hub').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.context().close();
  });

  describe('with Stripe (stripe-mock)', () => {
    let mock: StripeMock;
    let billed: HubProcess;
    let billedOwner: HubOwner;

    beforeAll(async () => {
      mock = await startStripeMock();
      billed = await spawnHub({
        env: {
          BINNACLE_STRIPE_SECRET_KEY: mock.secretKey,
          BINNACLE_STRIPE_WEBHOOK_SECRET: 'whsec_binnacle_web_test',
          BINNACLE_STRIPE_API_URL: mock.url,
          BINNACLE_STRIPE_PRICES: 'team=price_team_test,business=price_business_test',
        },
      });
      billedOwner = await signInOwner(billed);
      await createCluster(billed, billedOwner, 'prod');
      await createCluster(billed, billedOwner, 'staging');
    }, 180_000);
    afterAll(async () => {
      await billed?.stop();
      await mock?.stop();
    });

    it('shows the plan and usage against its limits, and sends the owner to Stripe Checkout and the portal', async () => {
      const page = await openAsOwner(billedOwner, `${billed.publicUrl}/settings/billing`);
      const usage = page.getByRole('region', { name: 'Usage' });
      await usage.getByRole('meter', { name: 'Clusters: 2 of 3' }).waitFor();
      await usage.getByRole('meter', { name: 'Members: 1 of 5' }).waitFor();
      const plan = page.getByRole('region', { name: 'Plan', exact: true });
      await plan.getByText('free', { exact: true }).waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await docsScreenshot(page, 'billing');

      // Stripe's hosted pages are not reached from the test: the browser's request for them is answered here.
      const visited: string[] = [];
      await page.route(/^https:\/\//, (route) => {
        visited.push(route.request().url());
        return route.fulfill({ contentType: 'text/html', body: '<title>Stripe</title><h1>Stripe</h1>' });
      });
      // The hub's answer, kept on its way to the page (which leaves at once for the URL in it).
      const answered: string[] = [];
      await page.route(/\/billing\/(checkout|portal)$/, async (route) => {
        const response = await route.fetch();
        answered.push(((await response.json()) as { url: string }).url);
        await route.fulfill({ response });
      });
      await page.getByRole('button', { name: 'Change plan to team' }).click();
      await page.waitForURL(/^https:\/\/checkout\.stripe\.com\//);
      expect(answered).toEqual([page.url()]);
      expect(visited).toEqual([page.url()]);

      await page.goto(`${billed.publicUrl}/settings/billing?checkout=cancelled`);
      await page.getByRole('status').getByText('Checkout cancelled: nothing was changed.').waitFor();
      await page.getByRole('button', { name: 'Manage billing' }).click();
      await expect.poll(() => answered.length).toBe(2);
      // The browser writes the URL its own way (stripe-mock's has braces, which it percent-encodes).
      const portal = new URL(answered[1] ?? '').href;
      await page.waitForURL((url) => url.href === portal);
      expect(visited).toHaveLength(2);
      await page.context().close();
    });
  });
});

describe('dead ends of a hub without OIDC, with an offline cluster', () => {
  it('says on the members page that invitations need single sign-on, and refuses one with the reason', async () => {
    const page = await openAsOwner(owner, `${hub.publicUrl}/members`);
    const invitations = page.getByRole('region', { name: 'Invitations' });
    await invitations.getByRole('status').getByText('Invitations need single sign-on').waitFor();
    expect(await invitations.getByRole('button', { name: 'Invite' }).isDisabled()).toBe(true);
    expect(await invitations.getByLabel('E-mail').isDisabled()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'hub-members-no-sso');
    const orgId = (
      (await (await page.request.get(`${hub.publicUrl}/api/account`)).json()) as {
        currentOrg: { id: string };
      }
    ).currentOrg.id;
    const refused = await page.request.post(`${hub.publicUrl}/api/orgs/${orgId}/invitations`, {
      headers: { origin: hub.publicUrl },
      data: { email: 'dev@example.com', role: 'viewer' },
    });
    expect(refused.status()).toBe(409);
    expect(await refused.json()).toMatchObject({ code: 'invitations_unavailable' });
    // Signed in, the link explains instead of offering a button that cannot work.
    await page.goto(`${hub.publicUrl}/accept-invitation?token=bni_from_before`);
    await page.getByRole('status').getByText('This invitation cannot be accepted on this hub yet').waitFor();
    expect(await page.getByRole('button', { name: 'Accept the invitation' }).count()).toBe(0);
    await page.context().close();
  });

  it('explains an invitation link to the invitee, who lands at the sign-in form', async () => {
    const page = await openPage(browser, `${hub.publicUrl}/accept-invitation?token=bni_from_before`);
    await page.waitForURL(/\/sign-in\?returnTo=%2Faccept-invitation/);
    await page.getByRole('status').getByText('This invitation cannot be accepted on this hub yet').waitFor();
    await page.getByRole('form', { name: 'Break-glass admin' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'hub-invitation-no-sso');
    await page.context().close();
  });

  it('opens an offline cluster on a page that says so and how to reconnect, and the cluster once it is back', async () => {
    // Content negotiation: a browser's page load gets the hub's page, with the status; an API client the JSON.
    const asBrowser = await fetch(`${hub.url}/c/${stopped.id}/`, {
      headers: { cookie: owner.cookie, accept: 'text/html,application/xhtml+xml' },
    });
    expect(asBrowser.status).toBe(503);
    expect(asBrowser.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await asBrowser.text()).toContain('<meta name="binnacle-ui" content="hub" />');
    const asClient = await fetch(`${hub.url}/c/${stopped.id}/`, { headers: { cookie: owner.cookie } });
    expect(asClient.status).toBe(503);
    expect(await asClient.json()).toMatchObject({ code: 'cluster_offline' });
    const signedOut = await fetch(`${hub.url}/c/${stopped.id}/`, { headers: { accept: 'text/html' } });
    expect([signedOut.status, signedOut.headers.get('content-type')]).toEqual([
      401,
      'text/html; charset=utf-8',
    ]);

    // From the list of clusters, as a person would.
    const page = await openAsOwner(owner, `${hub.publicUrl}/`);
    await page.getByRole('link', { name: 'stopped', exact: true }).click();
    await page.getByRole('heading', { name: 'stopped is offline' }).waitFor();
    await page.getByText(/It was last seen \d+[smh] ago/).waitFor();
    const reconnect = page.getByRole('region', { name: 'Reconnect its agent' });
    expect(await reconnect.getByRole('region', { name: 'Check the agent' }).textContent()).toContain(
      'kubectl -n binnacle logs deploy/binnacle-agent',
    );
    expect(await reconnect.getByRole('region', { name: 'Helm values' }).textContent()).toContain(
      `url: ${hub.publicUrl}`,
    );
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'hub-cluster-offline');

    const unknown = await openAsOwner(owner, `${hub.publicUrl}/c/00000000-0000-0000-0000-000000000000/`);
    await unknown.getByRole('heading', { name: 'No such cluster' }).waitFor();
    await unknown.context().close();

    // The agent comes back: the page opens the cluster's own pages by itself.
    agents.push(await startTestAgent({ config: { cloudUrl: hub.url, clusterToken: stopped.token } }));
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor({ timeout: 30_000 });
    await page.context().close();
  });
});
