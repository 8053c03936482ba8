import { connect } from 'node:net';
import { startTestAgent, type TestAgent } from '@binnacle/agent/testing';
import {
  deploymentBody,
  docsScreenshot,
  evictedPods,
  openPage,
  seriousA11yViolations,
  testCluster,
  waitUntil,
} from '@binnacle/testkit';
import { AppsV1Api, CoreV1Api } from '@kubernetes/client-node';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { agentInBrowser } from './browser-suite.ts';
import { appPods, fluxEvents } from './dashboard-steps.ts';
import {
  echoInTerminal,
  editYamlAndFollowToTimeline,
  highlightedOption,
  highlightPodInPalette,
  openPodWithPalette,
  seeNewLogLine,
  seeShopEdges,
} from './ui-steps.ts';

const cluster = testCluster();
const core = cluster.kubeConfig('admin').makeApiClient(CoreV1Api);
const web = agentInBrowser('web');

const open = (path: string, colorScheme?: 'light' | 'dark') =>
  openPage(web.browser, `${web.agent.url}${path}`, colorScheme);

describe('the web UI served by the agent', () => {
  it('shows the dashboard of the seeded cluster, with no serious accessibility violations', async () => {
    const page = await open('/');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    // The seeded Helm release, and the one Flux installs in flux-demo.
    await page.getByText('billing 1.2.0').first().waitFor();
    const counts = page.getByRole('region', { name: 'Resource counts' });
    expect(await counts.getByText('Deployments').count()).toBe(1);
    // The event stream connects on its own, not with the dashboard's data (one such status: strict).
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'dashboard');
    await page.context().close();
  });

  it('opens the filtered pods table from a health card, groups one problem across pods, folds routine events', async () => {
    const dash = await cluster.namespace('dash');
    try {
      await Promise.all([
        evictedPods(core, dash.name, ['evicted-0', 'evicted-1', 'evicted-2']),
        fluxEvents(core, dash.name, 12),
      ]);
      const page = await open(`/?namespace=${dash.name}`);
      const failing = page
        .getByRole('region', { name: 'Health' })
        .getByRole('link', { name: /Failing pods\s*3/ });
      await failing.waitFor();
      // The audit may find dangers in the pods too: their groups come after the failing pods'.
      const problems = page.getByRole('region', { name: /^Problems/ });
      await problems.getByRole('button', { name: 'Details: 3 Evicted' }).click();
      await problems.getByRole('link', { name: `${dash.name}/evicted-2` }).waitFor();
      const events = page.getByRole('region', { name: 'Recent events' });
      // The warning stands on its own; the reconciliations fold into one line, opened and closed on request.
      await events.getByText('HealthCheckFailed', { exact: true }).waitFor();
      const fold = events.getByRole('button', { name: 'Flux: 12 routine events (ReconciliationSucceeded)' });
      expect(await fold.getAttribute('aria-expanded')).toBe('false');
      await fold.click();
      const folded = events.getByRole('list', { name: 'Flux routine events' });
      expect(await folded.getByRole('listitem').count()).toBe(12);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await fold.click();
      await folded.waitFor({ state: 'detached' });
      await failing.click();
      await page.waitForURL(/\/resources\/pods\?/);
      expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({
        namespace: dash.name,
        status: 'Evicted',
      });
      await page.context().close();
    } finally {
      await dash.remove();
    }
  });

  it('keeps the namespace in the URL: a deep link opened in a fresh page shows the same view', async () => {
    const page = await open('/');
    await page.getByLabel('Namespace').selectOption('demo-shop');
    await page.waitForURL(/namespace=demo-shop/);
    await page.getByRole('heading', { name: /Dashboard.*demo-shop/ }).waitFor();
    const link = page.url();
    const fresh = await open(new URL(link).pathname + new URL(link).search, 'dark');
    await fresh.getByRole('heading', { name: /Dashboard.*demo-shop/ }).waitFor();
    expect(await fresh.getByLabel('Namespace').inputValue()).toBe('demo-shop');
    expect(await seriousA11yViolations(fresh)).toEqual([]);
    await docsScreenshot(fresh, 'dashboard-dark');
    await page.context().close();
    await fresh.context().close();
  });

  it('shows changes on the timeline as they happen, each with its field diff', async () => {
    const page = await open(`/timeline?namespace=${web.ns.name}`);
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    await core.createNamespacedConfigMap({
      namespace: web.ns.name,
      body: { metadata: { name: 'web-settings' }, data: { mode: 'calm' } },
    });
    const rows = page.getByRole('list', { name: 'Changes' }).getByRole('button');
    await rows.filter({ hasText: 'web-settings' }).first().waitFor();
    const live = await core.readNamespacedConfigMap({ namespace: web.ns.name, name: 'web-settings' });
    await core.replaceNamespacedConfigMap({
      namespace: web.ns.name,
      name: 'web-settings',
      body: { ...live, data: { mode: 'busy' } },
    });
    const update = rows.filter({ hasText: 'update' }).filter({ hasText: 'web-settings' });
    await update.waitFor();
    await update.click();
    const diff = page.getByRole('table', { name: 'Changed fields' });
    // ConfigMap values never reach the timeline in clear: the agent records that the key changed.
    await diff.getByRole('cell', { name: 'data.mode' }).waitFor();
    expect(await diff.getByRole('cell', { name: '(changed)' }).count()).toBe(1);
    expect(await page.getByText('calm').count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'timeline');
    await page.reload();
    await rows.filter({ hasText: 'web-settings' }).first().waitFor();
    await page.context().close();
  });

  it('lists a kind in a table with its kubectl columns and opens an object with its YAML and events', async () => {
    const page = await open('/resources/pods?namespace=demo-shop');
    const table = page.getByRole('region', { name: 'Pod objects' });
    await table
      .getByRole('link', { name: /^storefront-/ })
      .first()
      .waitFor();
    // kubectl's columns, from the agent's printers: the box that ticks every row first, then NAME (sorted; no
    // NAMESPACE for one namespace, as kubectl); CPU and MEMORY follow once the metrics poller has a sample.
    const headers = await table.getByRole('columnheader').allTextContents();
    expect(headers.slice(0, 6)).toEqual(['', 'NAME ▲', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
    expect([[], ['CPU', 'MEMORY']]).toContainEqual(headers.slice(6));
    // The seed's 3 storefront and 2 checkout pods, one container each, all running and ready.
    await page.getByRole('heading', { name: /^Pod\s*5$/ }).waitFor();
    const rows = table.getByRole('row').filter({ has: page.getByRole('link') });
    expect(await rows.count()).toBe(5);
    expect(await rows.filter({ has: page.getByText('Running', { exact: true }) }).count()).toBe(5);
    expect(await rows.filter({ has: page.getByText('1/1', { exact: true }) }).count()).toBe(5);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'resources');
    await page.getByLabel('Filter (press /)').fill('checkout');
    await page.getByLabel('Filter (press /)').press('Enter');
    await page.waitForURL(/q=checkout/);
    await expect.poll(() => table.getByRole('link').count()).toBe(2);
    await table.getByRole('link').first().click();
    await page.getByRole('heading', { name: /Pod demo-shop\/checkout-/ }).waitFor();
    const yaml = await page.getByLabel('Object YAML').textContent();
    expect(yaml).toMatch(/^kind: Pod$/m);
    expect(yaml).not.toContain('managedFields');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'resource-detail');
    const link = new URL(page.url());
    const fresh = await open(link.pathname + link.search);
    expect(await fresh.getByLabel('Object YAML').textContent()).toMatch(/^kind: Pod$/m);
    const podName = link.pathname.split('/').at(-1) ?? '';
    await fresh.getByRole('link', { name: 'History on the timeline →' }).click();
    await fresh.waitForURL(/\/timeline\?/);
    await fresh
      .getByRole('list', { name: 'Changes' })
      .getByRole('button')
      .filter({ hasText: podName })
      .first()
      .waitFor();
    const url = new URL(fresh.url()).searchParams;
    expect([url.get('kind'), url.get('name'), url.get('namespace')]).toEqual(['Pod', podName, 'demo-shop']);
    await fresh.context().close();
    await page.context().close();
  });

  it('walks a table with the keyboard: arrows move between rows, Enter opens one', async () => {
    const page = await open('/resources/deployments?namespace=demo-shop');
    const table = page.getByRole('region', { name: 'Deployment objects' });
    await table.getByRole('link', { name: 'storefront' }).waitFor();
    await table.focus();
    await page.keyboard.press('ArrowDown');
    expect(await page.locator(':focus').textContent()).toBe('checkout');
    await page.keyboard.press('j');
    expect(await page.locator(':focus').textContent()).toBe('storefront');
    await page.keyboard.press('k');
    await page.keyboard.press('End');
    expect(await page.locator(':focus').textContent()).toBe('storefront');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Deployment demo-shop/storefront' }).waitFor();
    await page.context().close();
  });

  it("shows an object's related objects, each a link: owners, pods, Services, configuration", async () => {
    const page = await open('/resources/deployments/demo-shop/storefront');
    const related = page.getByRole('region', { name: 'Related objects' });
    await related.getByText('Owns').waitFor();
    const row = (title: string) => related.getByRole('list', { name: title });
    expect(await related.getByRole('term').allTextContents()).toEqual(
      expect.arrayContaining(['Owns', 'Services', 'Configuration', 'Autoscalers', 'Disruption budgets']),
    );
    expect(
      await row('Owns')
        .getByRole('link', { name: /^demo-shop\/storefront-/ })
        .count(),
    ).toBeGreaterThanOrEqual(2);
    expect(await row('Configuration').getByRole('link').allTextContents()).toContain(
      'demo-shop/storefront-config',
    );
    expect(await seriousA11yViolations(page)).toEqual([]);
    await related.scrollIntoViewIfNeeded();
    await docsScreenshot(page, 'related-objects');
    await row('Services').getByRole('link', { name: 'demo-shop/storefront' }).click();
    await page.getByRole('heading', { name: 'Service demo-shop/storefront' }).waitFor();
    await related.getByText('Exposes').waitFor();
    expect(await row('Exposes').getByRole('link').allTextContents()).toEqual(['demo-shop/storefront']);
    expect(await row('Ingresses').getByRole('link').allTextContents()).toEqual(['demo-shop/storefront']);
    expect(await row('Pods').getByRole('link').count()).toBeGreaterThanOrEqual(1);
    await page.context().close();
  });

  it('ticks several rows, by click and by keyboard, and deletes them in one go with a report', async () => {
    const names = ['web-bulk-a', 'web-bulk-b', 'web-bulk-c', 'web-bulk-keep'];
    for (const name of names)
      await core.createNamespacedConfigMap({ namespace: web.ns.name, body: { metadata: { name } } });
    const page = await open(`/resources/configmaps?namespace=${web.ns.name}&q=web-bulk`);
    const table = page.getByRole('region', { name: 'ConfigMap objects' });
    await table.getByRole('link', { name: 'web-bulk-keep' }).waitFor();
    await table.getByLabel(`Select the 4 rows shown`).check();
    await table.getByLabel(`Select ${web.ns.name}/web-bulk-keep`).uncheck();
    await page.getByText('3 selected').waitFor();
    await table.getByLabel(`Select ${web.ns.name}/web-bulk-b`).uncheck();
    await table.getByRole('link', { name: 'web-bulk-b' }).focus();
    await page.keyboard.press('x');
    await page.getByText('3 selected').waitFor();
    expect(await table.getByLabel(`Select ${web.ns.name}/web-bulk-b`).isChecked()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'bulk-select');
    await page.getByRole('button', { name: 'Delete…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete 3 ConfigMap objects?' });
    expect(await dialog.getByRole('listitem').allTextContents()).toEqual(
      ['web-bulk-a', 'web-bulk-b', 'web-bulk-c'].map((name) => `${web.ns.name}/${name}`),
    );
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('status').getByText('3 of 3 deleted.').waitFor();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await waitUntil(
      'the deleted ConfigMaps to leave the table',
      async () => (await table.getByRole('link').allTextContents()).join() === 'web-bulk-keep',
      { timeoutMs: 15_000 },
    );
    const left = await core.listNamespacedConfigMap({ namespace: web.ns.name });
    expect(left.items.map((c) => c.metadata?.name).filter((n) => n?.startsWith('web-bulk'))).toEqual([
      'web-bulk-keep',
    ]);
    await page.context().close();
  });

  it('finds a pod by name with the command palette (Ctrl-K) and opens it', async () => {
    const page = await open('/');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Go to a kind or object' });
    await palette.getByRole('combobox').fill('postgres');
    // The StatefulSet and the Service named postgres match exactly and come first; then the pod. Each kind's
    // list arrives on its own: all three are awaited before the order is read.
    for (const name of [/^postgres\s*StatefulSet/, /^postgres\s*Service/, /postgres-0.*Pod · demo-data/])
      await palette.getByRole('option', { name }).waitFor();
    expect((await palette.getByRole('option').allTextContents()).slice(0, 3)).toEqual([
      'postgresStatefulSet · demo-data',
      'postgresService · demo-data',
      'postgres-0Pod · demo-data',
    ]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'palette');
    await page.keyboard.press('Escape');
    await openPodWithPalette(page);
    expect(new URL(page.url()).pathname).toBe('/resources/pods/demo-data/postgres-0');
    await page.keyboard.press('Control+k');
    await palette.getByRole('combobox').fill('Deployment');
    await palette.getByRole('combobox').press('Enter');
    await page.getByRole('region', { name: 'Deployment objects' }).waitFor();
    await page.context().close();
  });

  it("keeps the palette's highlight on its object while other lists are still loading", async () => {
    const page = await open('/');
    // The StatefulSet named postgres, which sorts above the pod, arrives only once the pod is highlighted.
    const release = Promise.withResolvers<void>();
    await page.route(/\/api\/resources\/statefulsets\?.*summary=true/, async (route) => {
      await release.promise;
      await route.continue();
    });
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await highlightPodInPalette(page);
    expect(await highlightedOption(page)).toMatch(/^postgres-0\s*Pod · demo-data$/);
    release.resolve();
    const palette = page.getByRole('dialog', { name: 'Go to a kind or object' });
    await palette.getByRole('option', { name: /^postgres\s*StatefulSet · demo-data$/ }).waitFor();
    expect(await highlightedOption(page)).toMatch(/^postgres-0\s*Pod · demo-data$/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Pod demo-data/postgres-0' }).waitFor();
    await page.context().close();
  });

  it("streams a pod's log into its page, new lines arriving as they are written", async () => {
    const page = await open('/resources/pods?namespace=demo-data');
    await page.getByRole('link', { name: 'postgres-0' }).click();
    await seeNewLogLine(page);
    const log = page.getByLabel('Log lines');
    await page.getByLabel('Search the log').fill('orders');
    await log.locator('mark').first().waitFor();
    expect(await log.locator('mark').first().textContent()).toBe('orders');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByLabel('Log lines').scrollIntoViewIfNeeded();
    await docsScreenshot(page, 'logs');
    await page.context().close();
  });

  it("opens a shell in a pod's terminal: typing echo hi prints hi", async () => {
    const page = await open('/resources/pods/demo-data/postgres-0');
    await echoInTerminal(page);
    const terminal = page.getByRole('region', { name: 'Shell' });
    expect(await seriousA11yViolations(page)).toEqual([]);
    await terminal.scrollIntoViewIfNeeded();
    await docsScreenshot(page, 'terminal');
    await page.context().close();
  }, 180_000); // up to three shell sessions of 30 s each under load

  it("opens a shell on the agent's host from the sidebar's Terminal", async () => {
    const page = await open('/');
    await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Terminal' }).click();
    await page.getByRole('heading', { name: 'Local terminal' }).waitFor();
    await echoInTerminal(page, "The agent's host");
    // A clean screen for the docs: Ctrl-L clears it, then one command and its answer.
    await page.keyboard.press('Control+l');
    await page.keyboard.type('uname -s');
    await page.keyboard.press('Enter');
    await page
      .getByRole('region', { name: 'Shell' })
      .locator('.xterm-rows > div', { hasText: /^Linux\s*$/ })
      .waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'local-terminal');
    await page.context().close();
  }, 180_000); // up to three shell sessions of 30 s each under load

  it('says why there is no local terminal on an agent started without one', async () => {
    const off = await startTestAgent({ config: { disableLocalTerminal: true }, start: false });
    try {
      const context = await web.browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${off.url}/terminal`);
      await page.getByText('The agent was started with --disable-local-terminal.').waitFor();
      expect(
        await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Terminal' }).count(),
      ).toBe(0);
      await context.close();
    } finally {
      await off.close();
    }
  });

  it('scales a Deployment after asking, says what happened and links to the action on the timeline', async () => {
    const apps = cluster.kubeConfig('admin').makeApiClient(AppsV1Api);
    await apps.createNamespacedDeployment({
      namespace: web.ns.name,
      body: deploymentBody('web'),
    });
    const page = await open(`/resources/deployments/${web.ns.name}/web`);
    await page.getByRole('button', { name: 'Scale' }).click();
    const dialog = page.getByRole('dialog', { name: 'Scale Deployment web?' });
    await dialog.getByLabel('Replicas').fill('3');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'scale');
    await dialog.getByRole('button', { name: 'Scale' }).click();
    await page.getByRole('status').filter({ hasText: 'See it on the timeline' }).waitFor();
    expect(
      (await apps.readNamespacedDeployment({ namespace: web.ns.name, name: 'web' })).spec?.replicas,
    ).toBe(3);
    await page.getByRole('link', { name: 'See it on the timeline' }).click();
    const entry = page
      .getByRole('list', { name: 'Changes' })
      .getByRole('button')
      .filter({ hasText: 'action' });
    // Nobody signs in to this agent: the entry names the agent's own identity, and says that it is.
    await entry
      .filter({ hasText: 'Scale' })
      .filter({ hasText: "by binnacle-admin (the agent's own identity)" })
      .first()
      .waitFor();
    await page.context().close();
  });

  it('rolls a Deployment back to a revision picked from its history', async () => {
    const apps = cluster.kubeConfig('admin').makeApiClient(AppsV1Api);
    await apps.createNamespacedDeployment({ namespace: web.ns.name, body: deploymentBody('web-roll') });
    const revisions = async () =>
      (
        await web.agent.json<{ items: unknown[] }>(
          `/api/workloads/deployments/${web.ns.name}/web-roll/revisions`,
        )
      ).items.length;
    await waitUntil('the first revision', async () => (await revisions()) === 1, { timeoutMs: 30_000 });
    await apps.patchNamespacedDeployment({
      namespace: web.ns.name,
      name: 'web-roll',
      body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'web-roll:2' }],
    });
    await waitUntil('the second revision', async () => (await revisions()) === 2, { timeoutMs: 30_000 });
    const page = await open(`/resources/deployments/${web.ns.name}/web-roll`);
    await page.getByRole('button', { name: 'Roll back' }).click();
    const dialog = page.getByRole('dialog', { name: 'Roll back Deployment web-roll?' });
    await dialog.getByRole('radio', { name: /#1 web-roll:1/ }).check();
    expect(await dialog.getByRole('radio', { name: /#2 .*running now/ }).isDisabled()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'rollback');
    await dialog.getByRole('button', { name: 'Roll back' }).click();
    await page.getByRole('status').filter({ hasText: 'See it on the timeline' }).waitFor();
    const rolled = await apps.readNamespacedDeployment({ namespace: web.ns.name, name: 'web-roll' });
    expect(rolled.spec?.template.spec?.containers[0]?.image).toBe('web-roll:1');
    await page.context().close();
  });

  it("shows what a node's drain would evict, pod by pod, in a dry run that changes nothing", async () => {
    const page = await open('/resources/nodes/_/kwok-node-0');
    await page.getByRole('button', { name: 'Drain' }).click();
    const dialog = page.getByRole('dialog', { name: 'Drain Node kwok-node-0?' });
    await dialog.getByLabel('Dry run: only say what would be evicted').check();
    expect(await dialog.getByLabel('Leave DaemonSet pods on the node').isChecked()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Drain' }).click();
    const report = page.getByRole('table', { name: 'Drain report' });
    await report.waitFor();
    expect(await report.getByRole('cell', { name: 'planned' }).count()).toBeGreaterThan(0);
    await docsScreenshot(page, 'drain');
    const node = await core.readNode({ name: 'kwok-node-0' });
    expect(node.spec?.unschedulable).toBeFalsy();
    await page.context().close();
  });

  it("forwards a pod's port from its page, lists it among the sessions, and stops it", async () => {
    await core.createNamespacedPod({
      namespace: web.ns.name,
      body: {
        metadata: { name: 'web-echo' },
        spec: {
          containers: [
            { name: 'main', image: 'nginx:1.27.3', ports: [{ name: 'echo', containerPort: 9000 }] },
          ],
        },
      },
    });
    const page = await open(`/resources/pods/${web.ns.name}/web-echo`);
    const card = page.getByRole('region', { name: 'Port-forward' });
    await card.getByRole('button', { name: 'Forward 9000' }).click();
    const address = card.getByRole('link', { name: /^http:\/\/127\.0\.0\.1:\d+$/ });
    await address.waitFor();
    // The forward is real: bytes sent to the local port come back from kwok's echo behind the pod's port.
    const url = new URL((await address.textContent()) ?? '');
    const echoed = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), '127.0.0.1', () => socket.write('ping'));
      socket.once('data', (data) => {
        resolve(data.toString());
        socket.end();
      });
      socket.once('error', reject);
    });
    expect(echoed).toBe('ping');
    await card.getByRole('link', { name: 'All forwards and sessions →' }).click();
    const forwards = page.getByRole('table', { name: 'Port-forwards' });
    const row = forwards.getByRole('row').filter({ hasText: `${web.ns.name}/web-echo` });
    await row.getByRole('cell', { name: 'running' }).waitFor();
    // The sessions table loads from its own request, which may answer after the forwards table's.
    await page
      .getByRole('table', { name: 'Open sessions' })
      .getByRole('row')
      .filter({ hasText: `${web.ns.name}/web-echo` })
      .getByRole('cell', { name: 'portforward', exact: true })
      .waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'sessions');
    await row.getByRole('button', { name: 'Stop' }).click();
    await row.waitFor({ state: 'detached' });
    await page.getByText('No port-forwards.').waitFor();
    await page.context().close();
  });

  it("edits a ConfigMap's YAML: the dry run's diff first, then the apply, then the change on the timeline", async () => {
    await core.createNamespacedConfigMap({
      namespace: web.ns.name,
      body: { metadata: { name: 'web-edit' }, data: { color: 'blue' } },
    });
    const page = await open(`/resources/configmaps/${web.ns.name}/web-edit`);
    await page.getByRole('heading', { name: `ConfigMap ${web.ns.name}/web-edit` }).waitFor();
    await editYamlAndFollowToTimeline(
      page,
      { kind: 'ConfigMap', name: 'web-edit' },
      { from: 'color: blue', to: 'color: green' },
      (reviewing) => docsScreenshot(reviewing, 'yaml-diff'),
    );
    const stored = await core.readNamespacedConfigMap({ namespace: web.ns.name, name: 'web-edit' });
    expect(stored.data).toEqual({ color: 'green' });
    await page.context().close();
  });

  it('refuses an edit whose YAML is not valid, saying why, and applies nothing', async () => {
    await core.createNamespacedConfigMap({
      namespace: web.ns.name,
      body: { metadata: { name: 'web-bad-edit' }, data: { size: 'small' } },
    });
    const page = await open(`/resources/configmaps/${web.ns.name}/web-bad-edit`);
    const card = page.getByRole('region', { name: 'YAML' });
    await card.getByRole('button', { name: 'Edit' }).click();
    const editor = page.getByRole('textbox', { name: 'YAML of ConfigMap web-bad-edit' });
    await editor.press('ControlOrMeta+a');
    await page.keyboard.insertText('kind: ConfigMap\nmetadata: [unclosed');
    await card.getByRole('button', { name: 'Review changes' }).click();
    const alert = card.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/Could not run the dry run.*at line 2.*code: invalid_yaml/s);
    // Every failed change is also a toast with the agent's message and code, until dismissed.
    const toast = page.getByRole('region', { name: 'Notifications' }).getByRole('alert');
    expect(await toast.textContent()).toMatch(
      /The change did not go through.*at line 2.*code: invalid_yaml/s,
    );
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'toast');
    await toast.getByRole('button', { name: 'Dismiss' }).click();
    await toast.waitFor({ state: 'detached' });
    const stored = await core.readNamespacedConfigMap({ namespace: web.ns.name, name: 'web-bad-edit' });
    expect(stored.data).toEqual({ size: 'small' });
    await page.context().close();
  });

  it('deletes an object after asking, and goes back to its list', async () => {
    await core.createNamespacedConfigMap({
      namespace: web.ns.name,
      body: { metadata: { name: 'web-doomed' } },
    });
    const page = await open(`/resources/configmaps/${web.ns.name}/web-doomed`);
    await page.getByRole('region', { name: 'YAML' }).getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete ConfigMap web-doomed?' });
    expect(await seriousA11yViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(/\/resources\/configmaps\?namespace=/);
    // A ConfigMap has no finalizers: the DELETE the page waited for removed it.
    const gone = await core.readNamespacedConfigMap({ namespace: web.ns.name, name: 'web-doomed' }).then(
      () => 200,
      (error: { code?: number }) => error.code,
    );
    expect(gone).toBe(404);
    await page.context().close();
  });

  it('draws the live topology: Deployment → Pod and Service → Deployment edges, grouped, each object a link', async () => {
    const page = await open('/topology?namespace=demo-shop');
    const graph = page.getByRole('region', { name: 'Topology graph' });
    await seeShopEdges(page);
    await graph.getByText('namespace demo-shop').waitFor();
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'topology');
    await page.getByLabel('Group by').selectOption('app');
    await page.waitForURL(/group=app/);
    await graph.getByText('storefront (demo-shop)').waitFor();
    const link = new URL(page.url());
    const fresh = await open(link.pathname + link.search);
    const freshGraph = fresh.getByRole('region', { name: 'Topology graph' });
    await freshGraph.getByText('storefront (demo-shop)').waitFor();
    await freshGraph.getByText('checkout (demo-shop)').waitFor();
    await freshGraph.getByRole('link', { name: 'Deployment checkout' }).click();
    await fresh.getByRole('heading', { name: 'Deployment demo-shop/checkout' }).waitFor();
    await fresh.context().close();
    await page.context().close();
  });

  it('draws six pods without an owner as one group, and shows them one by one on request', async () => {
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        core.createNamespacedPod({
          namespace: web.ns.name,
          body: {
            metadata: { name: `batch-${i}`, labels: { app: 'batch' } },
            spec: { containers: [{ name: 'app', image: 'busybox:1.37' }] },
          },
        }),
      ),
    );
    const page = await open(`/topology?namespace=${web.ns.name}`);
    const graph = page.getByRole('region', { name: 'Topology graph' });
    await graph.getByText('batch pods').waitFor();
    await graph.getByRole('button', { name: 'Show the 6 batch pods one by one' }).click();
    await page.waitForURL(/expand=podgroup/);
    await graph.getByRole('link', { name: 'Pod batch-5' }).waitFor();
    expect(await graph.getByText('batch pods').count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: /^Group the pods again/ }).click();
    await graph.getByText('batch pods').waitFor();
    await page.context().close();
  });

  it('draws a cluster above --topology-max-nodes one node per namespace, each opening its graph', async () => {
    const small = await startTestAgent({ config: { topologyMaxNodes: 10 } });
    try {
      const context = await web.browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${small.url}/topology`);
      await page.getByRole('note').filter({ hasText: 'each namespace is one node' }).waitFor();
      const graph = page.getByRole('region', { name: 'Topology graph' });
      await graph.getByRole('button', { name: 'Open the topology of namespace demo-data' }).waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await docsScreenshot(page, 'topology-namespaces');
      await graph.getByRole('button', { name: 'Open the topology of namespace demo-shop' }).click();
      await page.waitForURL(/namespace=demo-shop/);
      await graph.getByText('namespace demo-shop').waitFor();
      // Every edge is drawn: the namespace's graph got a view fitted to it, not the collapsed one's.
      await seeShopEdges(page);
      expect(await page.getByRole('note').count()).toBe(0);
      await context.close();
    } finally {
      await small.close();
    }
  });

  it('draws 600 more pods fitted to the window with namespace titles and group names one can read', async () => {
    const spaces = await Promise.all([0, 1, 2].map(() => cluster.namespace('big')));
    try {
      const apps = [
        'checkout',
        'payments',
        'catalog',
        'search',
        'recommendations',
        'notifications',
        'inventory',
        'shipping',
        'accounts',
        'reviews',
        'pricing',
        'cart',
        'orders',
        'media',
        'gateway',
        'auth',
        'emails',
        'ledger',
        'fraud-detection',
        'warehouse',
      ];
      const nodes = ['kwok-node-0', 'kwok-node-1', 'kwok-node-2'];
      await appPods(
        core,
        spaces.map((s) => s.name),
        apps,
        200,
        nodes,
      );
      const page = await open('/topology');
      const graph = page.getByRole('region', { name: 'Topology graph' });
      const title = graph.getByText(`namespace ${spaces[0]?.name}`);
      await title.waitFor();
      await graph.getByText('200 pods').first().waitFor();
      await seeReadableAndShoot(page, title, 'topology-fitted');
      await page.context().close();
      await seeReducedTopology(spaces[0]?.name as string);
    } finally {
      await Promise.all(spaces.map((s) => s.remove()));
    }
  });

  /**
   * Readable on screen at the fitted zoom: the namespace's title drawn at least 11 px tall, a group's label at least
   * 6 px; then the screenshot for the docs.
   */
  async function seeReadableAndShoot(page: Page, title: Locator, image: string): Promise<void> {
    expect((await title.boundingBox())?.height).toBeGreaterThanOrEqual(11);
    const group = page
      .getByRole('region', { name: 'Topology graph' })
      .getByText(/^(recommendations · 10|10 recommendations|recommendations pods)$/)
      .first();
    expect((await group.boundingBox())?.height).toBeGreaterThanOrEqual(6);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, image);
  }

  /**
   * The same cluster above a small --topology-max-nodes: namespace frames of named pod groups with their counts,
   * readable fitted to the window, a frame's title opening that namespace's full graph.
   */
  /**
   * An agent whose --topology-max-nodes is as many nodes as the whole graph has besides the kinds a reduced one
   * leaves out: the agent's estimate, which counts every claim, autoscaler and budget, is above it, the pod groups
   * within it. Other files create objects meanwhile and can push the pod groups past it before the agent has
   * synced: then the figure is taken again, up to three times.
   */
  async function agentShowingPodGroups(big: string): Promise<TestAgent> {
    const leaves = [
      'ConfigMap',
      'Secret',
      'PersistentVolumeClaim',
      'HorizontalPodAutoscaler',
      'PodDisruptionBudget',
    ];
    for (let attempt = 1; ; attempt += 1) {
      const whole = await web.agent.json<{ nodes: { kind: string }[] }>('/api/topology');
      const topologyMaxNodes = whole.nodes.filter((n) => !leaves.includes(n.kind)).length;
      const small = await startTestAgent({ config: { topologyMaxNodes } });
      try {
        await waitUntil(
          'the whole cluster as pod groups',
          async () => {
            const t = await small.json<{ levelOfDetail?: string; nodes: { id: string }[] }>('/api/topology');
            return (
              t.levelOfDetail === 'pod-groups' &&
              t.nodes.some((n) => n.id === `podgroup/${big}/app-recommendations`)
            );
          },
          { timeoutMs: 10_000 },
        );
        return small;
      } catch (error) {
        await small.close();
        if (attempt === 3) throw error;
      }
    }
  }

  async function seeReducedTopology(big: string): Promise<void> {
    const small = await agentShowingPodGroups(big);
    try {
      const context = await web.browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${small.url}/topology`);
      await page.getByRole('note').filter({ hasText: 'pods are grouped by owner' }).waitFor();
      const graph = page.getByRole('region', { name: 'Topology graph' });
      const title = graph.getByRole('button', { name: `Open the topology of namespace ${big}` });
      await title.waitFor();
      await seeReadableAndShoot(page, title, 'topology-large');
      // From the keyboard: a route between frames may pass over the title, and its edge would take the click.
      await title.press('Enter');
      await page.waitForURL(new RegExp(`namespace=${big}`));
      await graph.getByText('200 pods').first().waitFor();
      expect(await page.getByRole('note').count()).toBe(0);
      await context.close();
    } finally {
      await small.close();
    }
  }

  it('explains a 403 instead of showing an empty page', async () => {
    const restricted = await startTestAgent({ identity: 'restricted' });
    try {
      const context = await web.browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${restricted.url}/resources/secrets/demo-shop/storefront-credentials`);
      const alert = page.getByRole('alert');
      await alert.getByText('You may not see secrets demo-shop/storefront-credentials').waitFor();
      expect(await alert.textContent()).toContain('code: forbidden');
      await context.close();
    } finally {
      await restricted.close();
    }
  });

  it('shows a page that fails to render as an error panel in the shell: navigation works, Retry renders it again', async () => {
    const context = await web.browser.newContext({ viewport: { width: 1440, height: 900 } });
    // A 200 without the dashboard's fields, which the agent never answers: the page throws as it renders.
    const broken = /\/api\/dashboard(\?|$)/;
    await context.route(broken, (route) => route.fulfill({ json: {} }));
    const page = await context.newPage();
    await page.goto(`${web.agent.url}/`);
    const panel = page.getByRole('alert').filter({ hasText: 'This page failed to show' });
    await panel.waitFor();
    expect(await panel.getByRole('link', { name: 'Go home' }).getAttribute('href')).toBe('/');
    expect(await seriousA11yViolations(page)).toEqual([]);
    const areas = page.getByRole('navigation', { name: 'Areas' });
    await areas.getByRole('link', { name: 'Timeline', exact: true }).click();
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    await page.goBack();
    await panel.waitFor();
    // The agent answers properly again: Retry drops the broken answer and asks afresh.
    await context.unroute(broken);
    await panel.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await panel.waitFor({ state: 'detached' });
    await context.close();
  });

  it('answers a page path with the UI and an unknown API path with a JSON 404', async () => {
    const page = await open('/no/such/page');
    await page.getByRole('heading', { name: 'No such page' }).waitFor();
    await page.context().close();
    const api = await web.agent.request('/api/no-such-route');
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ code: 'route_not_found' });
  });

  it('lets browsers keep hashed assets and never index.html', async () => {
    const index = await web.agent.request('/deep/link');
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toBe('no-store');
    const html = await index.text();
    expect(html).toContain('<base href="/" />');
    const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await web.agent.request(`/${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const missing = await web.agent.request('/assets/nothing-here.js');
    expect(missing.status).toBe(404);
  });
});
