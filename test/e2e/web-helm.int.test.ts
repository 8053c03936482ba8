import { releaseWithFailedHook, startTestAgent, type TestAgent } from '@binnacle/agent/testing';
import {
  type CatalogServer,
  docsScreenshot,
  launchBrowser,
  openPage,
  seriousA11yViolations,
  startCatalogServer,
  testCluster,
  waitUntil,
} from '@binnacle/testkit';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The seeded release demo-billing/billing is only read here: other test files read it too.
const cluster = testCluster();
let agent: TestAgent;
let browser: Browser;
let catalog: CatalogServer;
let ns: { name: string; remove: () => Promise<void> };

beforeAll(async () => {
  catalog = await startCatalogServer();
  [agent, browser, ns] = await Promise.all([
    startTestAgent({ config: { catalogUrl: catalog.url } }),
    launchBrowser(),
    cluster.namespace('web-helm'),
  ]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), agent?.close(), catalog?.close()]);
  await ns?.remove();
});

const open = (path: string, colorScheme?: 'light' | 'dark') =>
  openPage(browser, `${agent.url}${path}`, colorScheme);

/** The progress panel of a helm change: waits for it to end and answers its state and progress lines. */
async function runToEnd(page: Page, title: string): Promise<{ state: string; lines: string[] }> {
  const panel = page.getByRole('region', { name: `Progress: ${title}` });
  const state = panel.getByRole('status');
  await state.filter({ hasText: /Succeeded|Failed|Cancelled/ }).waitFor({ timeout: 120_000 });
  return {
    state: (await state.textContent()) ?? '',
    lines: await panel.getByRole('list', { name: 'Progress lines' }).getByRole('listitem').allTextContents(),
  };
}

/** The value of one fact of the release's summary (Status, Chart version, Revision, …). */
async function fact(page: Page, term: string): Promise<string> {
  const summary = page.getByRole('region', { name: 'Summary' });
  const value: Locator = summary.locator('div', { has: page.getByRole('term').filter({ hasText: term }) });
  return ((await value.getByRole('definition').textContent()) ?? '').trim();
}

/** A chart version 1.2.0 with the upgrade badge naming 1.3.0 beside it. */
const upgradable = expect.stringMatching(/^1\.2\.0\s*Upgrade available:↑1\.3\.0$/);

describe('the Helm pages', () => {
  it('lists the seeded release with the chart version it can be upgraded to, and finds it with the palette', async () => {
    const page = await open('/');
    await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Helm' }).click();
    await page.getByRole('heading', { name: /Helm releases/ }).waitFor();
    const releases = page.getByRole('region', { name: 'Releases' });
    // Flux installs a billing release of its own in flux-demo: this is the seeded one.
    const row = releases
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: 'billing' }), hasText: 'demo-billing' });
    await row.getByText('Upgrade available:').waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual([
      'billing',
      'demo-billing',
      'billing',
      upgradable,
      '3.1.0',
      'deployed',
      '2',
      expect.stringMatching(/ ago$/),
    ]);
    expect(await releases.getByRole('columnheader').allTextContents()).toEqual([
      'Name',
      'Namespace',
      'Chart',
      'Chart version',
      'App version',
      'Status',
      'Revision',
      'Updated',
    ]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'helm-releases');

    await page.getByLabel('Filter by name or chart').fill('nothing-like-it');
    await page.getByLabel('Filter by name or chart').press('Enter');
    await releases.getByText('No release matches “nothing-like-it”.').waitFor();

    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Go to a kind or object' });
    await palette.getByRole('combobox').fill('billing');
    await palette.getByRole('option', { name: /billing.*Helm release · demo-billing/ }).click();
    await page.getByRole('heading', { name: 'Helm release demo-billing/billing' }).waitFor();
    await page.context().close();
  });

  it('opens a release: summary, resources with their health and links, history, manifest and diff', async () => {
    const page = await open('/helm/demo-billing/billing');
    await page.getByRole('heading', { name: 'Helm release demo-billing/billing' }).waitFor();
    expect(await fact(page, 'Chart version')).toEqual(upgradable);
    expect(await fact(page, 'Revision')).toBe('2');
    const details = page.getByRole('region', { name: 'Release details' });
    const resources = details.getByRole('tabpanel');
    await resources.getByRole('link', { name: 'demo-billing/billing-config' }).waitFor();
    expect(await resources.getByRole('row').filter({ hasText: 'healthy' }).count()).toBe(3);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'helm-release');

    // The tabs take the arrows: → from Resources opens History.
    await details.getByRole('tab', { name: 'Resources' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForURL(/tab=history/);
    expect(await page.locator(':focus').textContent()).toBe('History');
    const history = details.getByRole('tabpanel');
    await history.getByRole('button', { name: 'Roll back to this (revision 1)' }).waitFor();
    expect(await history.getByRole('row').count()).toBe(3); // the header and revisions 2, 1
    expect(await history.getByRole('row').nth(1).getByRole('cell').first().textContent()).toBe('2');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await details.getByRole('tab', { name: 'Manifest' }).click();
    await details
      .getByRole('region', { name: 'Manifest of revision 2' })
      .getByText('kind: Deployment')
      .waitFor();
    await details.getByLabel('Revision', { exact: true }).selectOption('1');
    await details.getByRole('region', { name: 'Manifest of revision 1' }).waitFor();
    expect(new URL(page.url()).searchParams.get('revision')).toBe('1');

    await details.getByRole('tab', { name: 'Resources' }).click();
    await details.getByRole('link', { name: 'demo-billing/billing', exact: true }).first().click();
    await page.getByRole('heading', { name: /^(Deployment|Service) demo-billing\/billing$/ }).waitFor();
    await page.context().close();
  });

  it("says why an upgrade failed: the failed hook, its Job's condition and events, and Helm's rollback", async () => {
    const hooks = await cluster.namespace('web-helm-hooks');
    try {
      expect(await releaseWithFailedHook(hooks.name)).toMatch(/pre-upgrade hooks failed/);
      await waitUntil(
        'the rollback revision in the cache',
        async () =>
          (await agent.json<{ revision: number }>(`/api/pkgmgr/releases/${hooks.name}/hooky`)).revision === 3,
        { timeoutMs: 30_000 },
      );
      const page = await open(`/helm/${hooks.name}/hooky`);
      await page.getByRole('heading', { name: `Helm release ${hooks.name}/hooky` }).waitFor();
      expect(await fact(page, 'Last change')).toBe('Rollback to 1 What the hooks did →');
      await page.getByRole('link', { name: 'What the hooks did →' }).click();
      await page.waitForURL(/tab=hooks/);
      const details = page.getByRole('region', { name: 'Release details' });
      const rollbacks = details.getByRole('region', { name: 'Rollbacks' });
      expect(await rollbacks.getByRole('listitem').textContent()).toMatch(
        /^Revision 3 rolled back to 1 on .+ after revision 2 failed: .*pre-upgrade hooks failed/,
      );
      expect(await details.getByLabel('Hooks of revision').inputValue()).toBe('2');
      const hook = details.getByRole('region', { name: 'Hook hooky-migrate' });
      await hook.getByText('Failed', { exact: true }).waitFor();
      await hook.getByText('Failed: DeadlineExceeded').waitFor();
      const events = hook.getByRole('table', { name: 'Events of hooky-migrate' });
      await events.getByRole('row').filter({ hasText: 'DeadlineExceeded' }).waitFor();
      await events.getByRole('row').filter({ hasText: 'FailedScheduling' }).first().waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await docsScreenshot(page, 'helm-hooks');
      await page.context().close();
    } finally {
      await hooks.remove();
    }
  });

  it('shows the diff of two revisions readably in the dark theme', async () => {
    const page = await open('/helm/demo-billing/billing?tab=diff', 'dark');
    const details = page.getByRole('region', { name: 'Release details' });
    const diff = details.getByRole('region', { name: 'Manifest changes from revision 1 to 2' });
    await diff.waitFor();
    expect(await details.getByLabel('From', { exact: true }).inputValue()).toBe('1');
    expect(await details.getByLabel('To', { exact: true }).inputValue()).toBe('2');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'helm-diff-dark');
    await page.context().close();
  });

  it('installs billing from the Charts page with live progress, previews and applies values, upgrades, rolls back and uninstalls', async () => {
    const page = await open(`/helm/charts?namespace=${ns.name}`);
    const sources = page.getByRole('region', { name: 'Chart sources' });
    await sources.getByRole('button', { name: 'Update demo-oci' }).waitFor();
    expect(await sources.getByRole('row').filter({ hasText: 'OCI registry' }).count()).toBe(1);
    const charts = page.getByRole('region', { name: 'Charts' });
    await charts.getByRole('link', { name: 'demo/billing' }).waitFor();
    expect(await charts.getByRole('link').allTextContents()).toEqual(['billing', 'billing']);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'helm-charts');
    const update = sources.getByRole('button', { name: 'Update demo', exact: true });
    await update.click();
    await charts.getByRole('searchbox', { name: 'Search charts' }).fill('nothing-like-it');
    await charts.getByRole('searchbox', { name: 'Search charts' }).press('Enter');
    await charts.getByText('No chart matches “nothing-like-it”.').waitFor();
    await charts.getByRole('searchbox', { name: 'Search charts' }).fill('bill');
    await charts.getByRole('searchbox', { name: 'Search charts' }).press('Enter');
    await charts.getByRole('link', { name: 'demo/billing' }).waitFor();
    await waitUntil('the source to be read again', async () => (await update.textContent()) === 'Update', {
      timeoutMs: 15_000,
    });

    // The chart's page: README, versions, and the install form.
    await charts.getByRole('link', { name: 'demo/billing' }).click();
    await page.getByRole('heading', { name: 'Chart demo/billing' }).waitFor();
    await page.getByRole('heading', { name: 'billing', exact: true }).waitFor(); // the README's own heading
    const form = page.getByRole('form', { name: 'Install billing' });
    expect(await form.getByLabel('Version').inputValue()).toBe('1.3.0');
    expect(await form.getByLabel('Namespace', { exact: true }).inputValue()).toBe(ns.name);
    await form.getByLabel('Version').selectOption('1.2.0');
    await form.getByLabel('Release name').fill('ledger');
    await form.getByRole('button', { name: 'Install' }).click();
    const install = await runToEnd(page, `Install billing 1.2.0 as ${ns.name}/ledger`);
    expect(install.state).toBe('Succeeded');
    expect(install.lines.length).toBeGreaterThan(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'helm-install-progress');
    await page.getByRole('link', { name: `Open release ${ns.name}/ledger →` }).click();
    await page.getByRole('heading', { name: `Helm release ${ns.name}/ledger` }).waitFor();
    expect(await fact(page, 'Chart version')).toEqual(upgradable);

    // Values: edit, preview the dry run's diff, apply.
    const details = page.getByRole('region', { name: 'Release details' });
    await details.getByRole('tab', { name: 'Values' }).click();
    await details.getByText("No user-supplied values: the chart's defaults apply.").waitFor();
    await details.getByRole('button', { name: 'Edit values' }).click();
    const editor = page.getByRole('textbox', { name: `Values of release ${ns.name}/ledger` });
    await editor.waitFor();
    await editor.press('ControlOrMeta+a');
    await page.keyboard.insertText('config:\n  currency: USD\n');
    await details.getByRole('button', { name: 'Preview changes' }).click();
    const preview = details.getByRole('region', { name: 'Manifest changes of the new values' });
    await preview.waitFor({ timeout: 60_000 });
    const lines = (await preview.textContent()) ?? '';
    expect(lines).toContain('+  CURRENCY: "USD"');
    expect(lines).toContain('-  CURRENCY: "EUR"');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await preview.scrollIntoViewIfNeeded();
    await docsScreenshot(page, 'helm-values-preview');
    await details.getByRole('button', { name: 'Apply' }).click();
    await details
      .getByRole('status')
      .filter({ hasText: /revision 2 is deployed/ })
      .waitFor({ timeout: 120_000 });
    await details
      .getByRole('region', { name: 'User-supplied values of revision 2' })
      .getByText('currency: USD')
      .waitFor();

    // Upgrade to the newest version, with helm's progress.
    await page.getByRole('button', { name: 'Upgrade…' }).click();
    const upgrade = page.getByRole('dialog', { name: `Upgrade ${ns.name}/ledger?` });
    await upgrade.getByLabel('Version').waitFor();
    expect(await upgrade.getByLabel('Version').inputValue()).toBe('1.3.0');
    await upgrade.getByRole('button', { name: 'Upgrade' }).click();
    expect((await runToEnd(page, `Upgrade ${ns.name}/ledger to billing 1.3.0`)).state).toBe('Succeeded');
    await waitUntil('the summary to show revision 3', async () => (await fact(page, 'Revision')) === '3', {
      timeoutMs: 15_000,
    });
    expect(await fact(page, 'Chart version')).toBe('1.3.0');

    // Roll back to revision 2 from the history.
    await page.getByRole('button', { name: 'Close' }).click();
    await details.getByRole('tab', { name: 'History' }).click();
    await details.getByRole('button', { name: 'Roll back to this (revision 2)' }).click();
    const rollback = page.getByRole('dialog', { name: `Roll back ${ns.name}/ledger?` });
    expect(await rollback.getByLabel('Revision').inputValue()).toBe('2');
    await rollback.getByRole('button', { name: 'Roll back' }).click();
    expect((await runToEnd(page, `Roll back ${ns.name}/ledger to revision 2`)).state).toBe('Succeeded');
    await waitUntil('the summary to show revision 4', async () => (await fact(page, 'Revision')) === '4', {
      timeoutMs: 15_000,
    });
    expect(await fact(page, 'Chart version')).toEqual(upgradable);
    expect(await details.getByRole('row').count()).toBe(5);

    // Uninstall, after asking: back to the list, which no longer has it.
    await page.getByRole('button', { name: 'Uninstall…' }).click();
    await page
      .getByRole('dialog', { name: `Uninstall ${ns.name}/ledger?` })
      .getByRole('button', { name: 'Uninstall' })
      .click();
    await page.waitForURL(/\/helm\?namespace=/);
    await page.getByText(`No Helm releases in ${ns.name}.`).waitFor();
    const left = await agent.json<{ releases: unknown[] }>(`/api/pkgmgr/releases?namespace=${ns.name}`);
    expect(left.releases).toEqual([]);
    await page.context().close();
  }, 300_000);

  it('cancels a running install: the stream closes and the agent stops helm', async () => {
    const page = await open(`/helm/charts/demo-oci/billing?namespace=${ns.name}`, 'dark');
    const form = page.getByRole('form', { name: 'Install billing' });
    await form.getByLabel('Release name').fill('stuck');
    // Pods that no node takes: helm would wait its full five minutes for them.
    await form.getByLabel(/^Values/).fill('nodeSelector:\n  binnacle.dev/nowhere: "true"\n');
    await form.getByRole('button', { name: 'Install' }).click();
    const panel = page.getByRole('region', { name: `Progress: Install billing 1.3.0 as ${ns.name}/stuck` });
    await panel.getByRole('listitem').filter({ hasText: 'waiting' }).first().waitFor({ timeout: 60_000 });
    expect(await panel.locator('[aria-current="step"]').textContent()).toContain('waiting');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'helm-install-running-dark');
    await panel.getByRole('button', { name: 'Cancel' }).click();
    await panel.getByRole('status').filter({ hasText: 'Cancelled' }).waitFor();
    await waitUntil(
      'the agent to stop helm',
      async () => {
        const { items } = await agent.json<{ items: { kind: string; target: string }[] }>('/api/sessions');
        return !items.some((s) => s.kind === 'helm' && s.target.includes(`${ns.name}/stuck`));
      },
      { timeoutMs: 30_000 },
    );
    await page.context().close();
  }, 120_000);

  it('searches the chart catalog, and says so in a note when the catalog cannot answer', async () => {
    const page = await open('/helm/charts?tab=catalog');
    const results = page.getByRole('region', { name: 'Catalog charts' });
    const redis = results.getByRole('listitem').filter({ hasText: 'bitnami/redis' });
    await redis.getByRole('button', { name: 'Details of bitnami/redis' }).click();
    await redis.getByText('To install it, add its repository').waitFor();
    expect(await results.getByRole('listitem').count()).toBeGreaterThan(2);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'helm-catalog');
    await page.getByLabel('Search the catalog').fill('redis');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL(/q=redis/);
    await waitUntil(
      'the search to find redis alone',
      async () => (await results.getByRole('listitem').count()) === 1,
      {
        timeoutMs: 15_000,
      },
    );

    await catalog.down();
    try {
      await page.getByLabel('Search the catalog').fill('postgres');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'The chart catalog is not available' }).waitFor();
      expect(await page.getByRole('alert').count()).toBe(0);
    } finally {
      await catalog.up();
    }
    await page.context().close();
  });
});
