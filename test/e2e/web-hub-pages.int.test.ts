import { startTestAgent, type TestAgent } from '@binnacle/agent/testing';
import {
  docsScreenshot,
  freePort,
  type HubProcess,
  hubProcessBreakGlass,
  hubRoleBindingsLock,
  launchBrowser,
  seriousA11yViolations,
  spawnHub,
  startTestIdp,
  type TestIdp,
  testCluster,
} from '@binnacle/testkit';
import { RbacAuthorizationV1Api } from '@kubernetes/client-node';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The hub's own pages in Chromium, against a real `binnacle hub` process at its public origin with a real OIDC
 * provider: signing in as the break-glass admin (the first to sign in owns the organization), clusters with their
 * agents' connection, the connect page, access tokens, members and an invitation accepted through the IdP's own
 * login page, signing out.
 */
/**
 * The break-glass admin of this file's hub, under an address no other file binds in the shared cluster (others
 * bind `hubProcessBreakGlass`'s): what it may see there is what this file grants it.
 */
const admin = { email: 'ops@example.com', password: hubProcessBreakGlass.password };
const adminUser = `binnacle:user:${admin.email}`;
const cluster = testCluster();
let hub: HubProcess;
let idp: TestIdp;
let browser: Browser;
let page: Page;
const agents: TestAgent[] = [];

beforeAll(async () => {
  const port = await freePort();
  idp = await startTestIdp({ hubUrl: `http://localhost:${port}` });
  const oidc = {
    BINNACLE_OIDC_ISSUER: idp.issuer,
    BINNACLE_OIDC_CLIENT_ID: idp.clientId,
    BINNACLE_OIDC_CLIENT_SECRET: idp.clientSecret,
    // The SSO page checks the IdP's discovery, which only an operator's allowance lets reach loopback.
    BINNACLE_OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8',
  };
  [hub, browser] = await Promise.all([
    spawnHub({ port, env: { ...oidc, BINNACLE_BREAK_GLASS_EMAIL: admin.email } }),
    launchBrowser(),
  ]);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  page = await context.newPage();
});
afterAll(async () => {
  await Promise.all([browser?.close(), ...agents.map((a) => a.close())]);
  await hub?.stop();
  await idp?.close();
});

describe("the hub's pages", () => {
  it('serves its pages fresh, its hashed assets for a year, and keeps unknown API paths JSON', async () => {
    const index = await fetch(`${hub.url}/members?x=1`);
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toBe('no-store');
    const html = await index.text();
    expect(html).toContain('<meta name="binnacle-ui" content="hub" />');
    expect(html).toContain('<base href="/" />');
    const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
    const asset = await fetch(`${hub.url}/${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const unknown = await fetch(`${hub.url}/api/no-such-route`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      code: 'route_not_found',
      error: 'no route for GET /api/no-such-route',
    });
    expect((await fetch(`${hub.url}/assets/missing.js`)).status).toBe(404);
  });

  it('sends a visitor without a session to sign in, and back where they were going afterwards', async () => {
    await page.goto(`${hub.publicUrl}/tokens`);
    await page.waitForURL(/\/sign-in\?returnTo=%2Ftokens/);
    const form = page.getByRole('form', { name: 'Break-glass admin' });
    await form.getByLabel('E-mail').fill(admin.email);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'hub-sign-in');
    await form.getByLabel('Password').fill('not the password');
    await form.getByRole('button', { name: 'Sign in' }).click();
    await form.getByRole('alert').getByText('wrong e-mail or password').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await form.getByLabel('Password').fill(admin.password);
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
    expect(await account.json()).toMatchObject({ user: { email: admin.email } });
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
    const values = (await page.getByRole('region', { name: 'Helm values' }).textContent()) ?? '';
    expect(values).toContain('existingSecret: binnacle-agent-token');
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

  it('through the hub, an identity bound to nothing is told so on every page, with the bindings it needs; what it may not do is disabled, saying why', async () => {
    // Another file installing the agent chart binds the hub's role groups cluster-wide while it runs.
    const release = await cluster.lock(hubRoleBindingsLock, 240_000);
    const rbac = cluster.kubeConfig('admin').makeApiClient(RbacAuthorizationV1Api);
    const granted = `pages-${process.pid}`;
    const asAdmin = `as ${adminUser} with the group binnacle:role:owner`;
    try {
      await page.goto(`${hub.publicUrl}/`);
      const row = page.getByRole('row').filter({ hasText: 'staging' });
      await row.getByText(`You may not list pods in this cluster (${asAdmin}).`).waitFor({ timeout: 30_000 });
      const bindings = page.getByRole('region', { name: 'Bindings for an agent outside the chart' });
      await bindings
        .getByRole('region', { name: 'binnacle-agent-rbac.yaml' })
        .getByText('impersonate')
        .waitFor();
      const commands = (await bindings.getByRole('region', { name: 'RBAC commands' }).textContent()) ?? '';
      expect(commands).toContain('kubectl apply -f binnacle-agent-rbac.yaml');
      // This hub forwards IdP groups (clusterAccess idp): no role is bound, an IdP group's binding is shown.
      expect(commands).toContain('--group=binnacle:idp:/platform-admins');
      expect(commands).toContain(
        `kubectl auth can-i list pods --all-namespaces --as=${adminUser} --as-group=binnacle:role:owner`,
      );
      expect(await seriousA11yViolations(page)).toEqual([]);
      await docsScreenshot(page, 'hub-clusters-no-access');
      await row.getByRole('link', { name: 'The bindings an agent outside the chart needs' }).click();
      await page.waitForURL(/#agent-rbac$/);
      await docsScreenshot(page, 'hub-agent-rbac');

      // Every page of the cluster says why it is empty, as whom; nothing reads as a healthy empty cluster.
      // The cluster's pages: its link without the default namespace the hub may add.
      const home = (await row.getByRole('link', { name: 'staging' }).getAttribute('href')) ?? '';
      const base = `${hub.publicUrl}${home.replace(/\/(\?.*)?$/, '')}`;
      const at = (path: string) => page.goto(`${base}${path}`);
      await at('/');
      await page
        .getByText('Namespaces are shown where the identity may list pods, and it may list them in none')
        .waitFor();
      await page.getByRole('status').filter({ hasText: 'Connected, no access' }).waitFor();
      const counts = page.getByRole('region', { name: 'Resource counts' });
      expect(await counts.getByRole('link', { name: /^Pods/ }).textContent()).toBe('Pods—not allowed');
      expect(await counts.getByRole('link', { name: /^Nodes/ }).textContent()).toBe('Nodes—not allowed');
      await page.getByRole('region', { name: 'Problems (0)' }).getByText(`(${asAdmin})`).waitFor();
      await page
        .getByRole('region', { name: 'Recent events' })
        .getByText('You may not list events')
        .waitFor();
      await page
        .getByRole('region', { name: 'Helm releases' })
        .getByText('You may not list Helm releases')
        .waitFor();
      expect(await page.getByText('Nothing is failing').count()).toBe(0);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await docsScreenshot(page, 'web-no-access-dashboard');
      for (const [path, words] of [
        ['/resources/pods', 'and no binding lets it list Pod objects in any namespace'],
        // Listing a cluster-scoped kind is refused by the agent itself, whose 403 names who and what.
        ['/resources/nodes', `${adminUser} cannot list nodes cluster-wide (groups: binnacle:role:owner)`],
        ['/topology', `You may not list pods in this cluster (${asAdmin}).`],
        ['/timeline', `You may not list pods in this cluster (${asAdmin}).`],
        ['/helm', 'You may not list Helm releases in this cluster'],
      ] as const) {
        await at(path);
        await page.getByText(words).waitFor();
        expect(await page.getByText(/^(No \w+ objects|Nothing to draw|No changes match)/).count(), path).toBe(
          0,
        );
      }

      // Allowed to read one namespace and the nodes, nothing more: the actions it may not take say why.
      const user = { kind: 'User', name: adminUser, apiGroup: 'rbac.authorization.k8s.io' };
      await rbac.createNamespacedRoleBinding({
        namespace: 'demo-shop',
        body: {
          metadata: { name: granted },
          subjects: [user],
          roleRef: { kind: 'ClusterRole', name: 'view', apiGroup: 'rbac.authorization.k8s.io' },
        },
      });
      await rbac.createClusterRole({
        body: {
          metadata: { name: granted },
          rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] }],
        },
      });
      await rbac.createClusterRoleBinding({
        body: {
          metadata: { name: granted },
          subjects: [user],
          roleRef: { kind: 'ClusterRole', name: granted, apiGroup: 'rbac.authorization.k8s.io' },
        },
      });
      // The API server's authorizer takes the new bindings in moments; the agent's answers live 5 s.
      const api = `${base}/api`;
      await expect
        .poll(
          async () =>
            [
              (await page.request.get(`${api}/resources/pods?namespaces=demo-shop`)).status(),
              (await page.request.get(`${api}/resources/nodes`)).status(),
            ].join(),
          { timeout: 30_000 },
        )
        .toBe('200,200');
      const notAllowed = (what: string) =>
        `You may not ${what}: the agent asks the Kubernetes API as ${adminUser} with the group binnacle:role:owner.`;
      await at('/resources/deployments/demo-shop/storefront');
      const actions = page.getByRole('region', { name: 'Actions' });
      await actions
        .getByText(notAllowed('patch deployments.apps in namespace demo-shop'))
        .waitFor({ timeout: 30_000 });
      for (const name of ['Restart', 'Scale', 'Roll back'])
        expect(await actions.getByRole('button', { name }).isDisabled(), name).toBe(true);
      const yaml = page.getByRole('region', { name: 'YAML' });
      expect(await yaml.getByRole('button', { name: 'Edit' }).isDisabled()).toBe(true);
      expect(await yaml.getByRole('button', { name: 'Delete' }).isDisabled()).toBe(true);
      await yaml.getByText(notAllowed('delete Deployment objects in namespace demo-shop')).waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await docsScreenshot(page, 'web-actions-not-allowed');

      await at('/resources/pods?namespace=demo-shop');
      await page
        .getByRole('link', { name: /^storefront-/ })
        .first()
        .click();
      const terminal = page.getByRole('region', { name: 'Terminal' });
      await terminal.getByText(notAllowed('create pods/exec in namespace demo-shop')).waitFor();
      expect(await terminal.getByRole('button', { name: 'Open a shell' }).isDisabled()).toBe(true);
      const forward = page.getByRole('region', { name: 'Port-forward' });
      await forward.getByText('Port-forward is not available through the hub').waitFor();
      expect(await forward.textContent()).toMatch(
        /Run kubectl port-forward -n demo-shop pod\/storefront-\S+ <port> on your own machine instead\./,
      );
      expect(await forward.getByRole('alert').count()).toBe(0); // no red error quoting an internal route
      expect(await page.getByRole('region', { name: 'Logs' }).getByText('You may not').count()).toBe(0);

      await at('/resources/nodes');
      await page
        .getByRole('link', { name: /^kwok-node-/ })
        .first()
        .click();
      const nodeActions = page.getByRole('region', { name: 'Actions' });
      await nodeActions.getByText(notAllowed('patch nodes in this cluster')).waitFor();
      expect(await nodeActions.getByRole('button', { name: 'Drain' }).isDisabled()).toBe(true);
      expect(await seriousA11yViolations(page)).toEqual([]);
    } finally {
      await Promise.all([
        rbac.deleteNamespacedRoleBinding({ namespace: 'demo-shop', name: granted }).catch(() => undefined),
        rbac.deleteClusterRoleBinding({ name: granted }).catch(() => undefined),
        rbac.deleteClusterRole({ name: granted }).catch(() => undefined),
      ]);
      await release();
    }
  }, 420_000); // up to 240 s waiting for another file's bindings to go

  it('renames a cluster, rotates its agent token (shown once) and removes it, each after asking', async () => {
    await page.goto(`${hub.publicUrl}/`);
    await page.getByRole('button', { name: 'Rename staging' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename staging' });
    await rename.getByLabel('New name').fill('staging-eu');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('link', { name: 'staging-eu' }).waitFor();
    await page.getByRole('button', { name: 'Rotate token of staging-eu' }).click();
    const rotate = page.getByRole('dialog', { name: 'Rotate the agent token of staging-eu?' });
    await rotate.getByRole('button', { name: 'Rotate' }).click();
    const token = await rotate.getByLabel('New agent token of staging-eu').inputValue();
    expect(token).toMatch(/^bnc_/);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await rotate.getByRole('button', { name: 'Done' }).click();
    await page
      .getByRole('row')
      .filter({ hasText: 'staging-eu' })
      .getByText(`…${token.slice(-4)}`)
      .waitFor();
    await page.getByRole('button', { name: 'Remove staging-eu' }).click();
    await page
      .getByRole('dialog', { name: 'Remove staging-eu?' })
      .getByRole('button', { name: 'Remove' })
      .click();
    await page.getByText('No cluster yet.').waitFor();
    // A cluster whose agent already runs: its release is upgraded keeping its values, not installed afresh.
    await page.getByLabel(/^Name/).fill('legacy');
    await page.getByLabel('The agent already runs there').check();
    await page.getByRole('button', { name: 'Register' }).click();
    const commands = page.getByRole('region', { name: 'Install commands' });
    await commands.getByText('--reset-then-reuse-values').waitFor();
    expect(await commands.textContent()).not.toContain('helm install');
    await page.getByRole('button', { name: 'Remove legacy' }).click();
    await page
      .getByRole('dialog', { name: 'Remove legacy?' })
      .getByRole('button', { name: 'Remove' })
      .click();
    await page.getByText('No cluster yet.').waitFor();
  });

  it('invites a viewer, who signs in at the IdP from the link and sees no owner controls; a new role shows', async () => {
    await page.goto(`${hub.publicUrl}/members`);
    await page.getByRole('heading', { name: 'Members', exact: true }).waitFor();
    const invitations = page.getByRole('region', { name: 'Invitations' });
    await invitations.getByLabel('E-mail').fill('dev@example.com');
    await invitations.getByLabel('Role').selectOption('viewer');
    await invitations.getByLabel('Valid for').selectOption({ label: '3 days' });
    await invitations.getByRole('button', { name: 'Invite' }).click();
    const link = await invitations.getByLabel('Invitation link for dev@example.com').inputValue();
    expect(link).toMatch(new RegExp(`^${hub.publicUrl}/accept-invitation\\?token=bni_`));
    const pending = invitations.getByRole('row').filter({ hasText: 'dev@example.com' });
    const inThreeDays = new Date(Date.now() + 72 * 3_600_000).toISOString().slice(0, 10);
    await pending.getByRole('cell', { name: inThreeDays }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'hub-members');

    const invitee = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await invitee.goto(link);
    await invitee.getByRole('link', { name: 'Sign in with your identity provider' }).click();
    // The IdP's own login and consent pages, in the browser.
    await invitee.waitForURL((url) => url.href.startsWith(idp.issuer));
    await invitee.locator('input[name="login"]').fill('dev');
    await invitee.locator('input[name="password"]').fill('any');
    await invitee.locator('button[type="submit"]').click();
    await invitee.locator('button[type="submit"]').click(); // consent
    await invitee.waitForURL(/\/accept-invitation\?token=/);
    await invitee.getByRole('button', { name: 'Accept the invitation' }).click();
    // Signing in with the invited address already let them in.
    await invitee.getByRole('status').getByText('you now act in').waitFor();
    await invitee.getByRole('link', { name: 'Go to the clusters' }).click();
    await invitee.getByRole('heading', { name: 'Clusters', exact: true }).waitFor();
    expect(await invitee.locator('header').getByText('viewer', { exact: true }).count()).toBe(1);
    expect(await invitee.getByRole('region', { name: 'Register a cluster' }).count()).toBe(0);
    await invitee.goto(`${hub.publicUrl}/members`);
    await invitee.getByRole('cell', { name: 'dev@example.com', exact: true }).waitFor();
    expect(await invitee.getByRole('combobox').count()).toBe(0);
    expect(await invitee.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
    expect(await invitee.getByRole('region', { name: 'Invitations' }).count()).toBe(0);

    // A page that is the owners' alone: a viewer who goes there is told why, not shown a blank page.
    await invitee.goto(`${hub.publicUrl}/audit`);
    await invitee.getByRole('alert').getByText('You may not see the audit log').waitFor();
    expect(await seriousA11yViolations(invitee)).toEqual([]);

    await page.goto(`${hub.publicUrl}/audit`);
    const entries = page.getByRole('region', { name: 'Entries, newest first' });
    await entries.getByRole('cell', { name: 'invitation.create' }).waitFor();
    // People and objects by name next to their ids, a removed cluster and a revoked token included.
    const entry = (action: string) => entries.getByRole('row').filter({ hasText: action }).first();
    expect(await entry('invitation.create').textContent()).toContain('Break-glass admin');
    expect(await entry('invitation.create').textContent()).toContain('invitation dev@example.com');
    expect(await entry('cluster.delete').textContent()).toMatch(/cluster legacy [0-9a-f]{8}…/);
    expect(await entry('cluster.rotate_token').textContent()).toContain('cluster staging-eu');
    expect(await entry('pat.revoke').textContent()).toContain('pat ci-deploys');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'hub-audit');
    await page.getByLabel('Action').fill('pat.create');
    await page.getByLabel('Action').press('Enter');
    await page.waitForURL(/\/audit\?action=pat\.create/);
    await entries.getByRole('cell', { name: 'pat.create' }).waitFor();
    expect(await entries.getByRole('cell', { name: 'invitation.create' }).count()).toBe(0);
    // More entries than a page holds: the next page goes back in time from the last entry shown.
    for (let i = 0; i < 50; i += 1)
      await page.request.post(`${hub.publicUrl}/api/pats`, {
        headers: { origin: hub.publicUrl },
        data: { name: `bulk-${i}` },
      });
    await page.reload();
    await entries.getByRole('cell', { name: 'pat.create' }).first().waitFor();
    expect(await entries.getByRole('row').count()).toBe(51); // the heading row and a page of 50
    await page.getByRole('button', { name: 'Older →' }).click();
    await page.waitForURL(/cursor=\d+/);
    await page.getByRole('button', { name: '← Newest' }).waitFor();
    expect(await entries.getByRole('row').count()).toBe(2); // the first pat.create, made before the 50

    await page.goto(`${hub.publicUrl}/members`);
    await page.getByLabel('Role of dev@example.com').selectOption('member');
    await invitee.reload();
    await invitee.locator('header').getByText('member', { exact: true }).waitFor();
    // An OIDC session signs out at the IdP too: the browser goes to its logout page, with the ID token as hint.
    await invitee.getByRole('button', { name: 'Sign out' }).click();
    await invitee.waitForURL(
      (url) => url.href.startsWith(idp.issuer) && url.searchParams.has('id_token_hint'),
    );
    const after = await invitee.context().request.get(`${hub.url}/api/account`);
    expect(after.status()).toBe(401);
    await invitee.context().close();
  });

  it('shows the SSO settings in force and generates the values and commands for an IdP it checked', async () => {
    await page.goto(`${hub.publicUrl}/settings/sso`);
    const inForce = page.getByRole('region', { name: 'In force' });
    await inForce.getByText(idp.issuer, { exact: true }).waitFor();
    await inForce.getByText(`${hub.publicUrl}/api/auth/oidc/callback`, { exact: true }).waitFor();
    const setup = page.getByRole('region', { name: 'Set up' });
    await setup.getByLabel('Issuer URL').fill(idp.issuer);
    await setup.getByLabel('Client ID').fill('binnacle-hub');
    await setup.getByLabel('Client secret').fill('s3cret-from-the-idp');
    await setup.getByLabel('Cluster access').selectOption('roles');
    await setup.getByRole('button', { name: 'Check and generate' }).click();
    await setup.getByRole('status').getByText('The IdP answered its discovery document').waitFor();
    const values = (await setup.getByRole('region', { name: 'Helm values' }).textContent()) ?? '';
    expect(values).toContain(idp.issuer);
    expect(values).toContain('binnacle-hub');
    expect(values).not.toContain('s3cret-from-the-idp');
    const commands = (await setup.getByRole('region', { name: 'Commands' }).textContent()) ?? '';
    expect(commands).toContain('helm');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'hub-sso');
    // An IdP that is not there: said plainly, nothing generated as if it were fine.
    await setup.getByLabel('Issuer URL').fill('http://127.0.0.1:9/realms/none');
    await setup.getByRole('button', { name: 'Check and generate' }).click();
    await setup.getByRole('status').getByText("The IdP's discovery failed").waitFor();
  });

  it('keeps your theme and time zone on the hub, so they follow you to another browser', async () => {
    await page.goto(`${hub.publicUrl}/settings/preferences`);
    await page.getByLabel('Theme').selectOption('dark');
    await page.getByLabel('Times').selectOption('utc');
    await page.locator('html.dark').waitFor({ state: 'attached' });
    // Nothing left in this browser: the hub's copy is what brings the theme back.
    await page.evaluate('localStorage.clear()');
    await page.goto(`${hub.publicUrl}/audit`);
    await page.locator('html.dark').waitFor({ state: 'attached' });
    await page.getByRole('cell', { name: / UTC$/ }).first().waitFor();
    await page.goto(`${hub.publicUrl}/settings/preferences`);
    await page.getByLabel('Theme').selectOption('light');
    await page.waitForFunction('!document.documentElement.classList.contains("dark")');
  });

  it('starts a sign-in at your default cluster, on your default namespace', async () => {
    const registered = await page.request.post(`${hub.publicUrl}/api/clusters/connect`, {
      headers: { origin: hub.publicUrl },
      data: { name: 'home' },
    });
    expect(registered.status()).toBe(201);
    const { cluster } = (await registered.json()) as { cluster: { id: string; token: string } };
    agents.push(await startTestAgent({ config: { cloudUrl: hub.url, clusterToken: cluster.token } }));
    await page.goto(`${hub.publicUrl}/settings/preferences`);
    const start = page.getByRole('region', { name: 'Where you start' });
    await start.getByLabel('Default cluster').selectOption({ label: 'home' });
    await start.getByRole('textbox', { name: /^Default namespace/ }).fill('Not A Namespace');
    await start.getByRole('button', { name: 'Save' }).click();
    // The browser's own check stops a name no namespace could have before it reaches the hub.
    await start.locator('input:invalid').waitFor();
    await start.getByRole('textbox', { name: /^Default namespace/ }).fill('kube-system');
    await start.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(
        async () => (await (await page.request.get(`${hub.publicUrl}/api/preferences`)).json()) as unknown,
      )
      .toMatchObject({ defaultClusterId: cluster.id, defaultNamespace: 'kube-system' });
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'hub-preferences');
    await page.goto(`${hub.publicUrl}/`);
    await page.getByRole('row').filter({ hasText: 'home' }).getByText('your default').waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in$/);
    const form = page.getByRole('form', { name: 'Break-glass admin' });
    await form.getByLabel('E-mail').fill(admin.email);
    await form.getByLabel('Password').fill(admin.password);
    await form.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${hub.publicUrl}/c/${cluster.id}/?namespace=kube-system`, { timeout: 30_000 });
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await expect
      .poll(() => page.getByRole('combobox', { name: /^Namespace/ }).inputValue(), { timeout: 15_000 })
      .toBe('kube-system');
    // Back to nothing: the next sign-in starts at the list again.
    await page.request.patch(`${hub.publicUrl}/api/preferences`, {
      headers: { origin: hub.publicUrl },
      data: { defaultClusterId: null, defaultNamespace: null },
    });
  });

  it('switches between the organizations you belong to', async () => {
    const created = await page.request.post(`${hub.publicUrl}/api/orgs`, {
      headers: { origin: hub.publicUrl },
      data: { name: 'platform-team' },
    });
    expect(created.status()).toBe(201);
    await page.goto(`${hub.publicUrl}/`);
    const picker = page.getByLabel('Organization', { exact: true });
    // The page loads afresh in the organization picked.
    await Promise.all([page.waitForEvent('load'), picker.selectOption({ label: 'platform-team (owner)' })]);
    await page.getByText('No cluster yet.').waitFor();
    expect(
      await page.getByLabel('Organization', { exact: true }).locator('option:checked').textContent(),
    ).toBe('platform-team (owner)');
  });

  it('signs out: the session ends and its pages send to sign-in again', async () => {
    await page.goto(`${hub.publicUrl}/`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in/);
    await page.goto(`${hub.publicUrl}/`);
    await page.waitForURL(/\/sign-in\?returnTo=/);
  });
});
