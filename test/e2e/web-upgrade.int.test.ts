import { deprecatedWidgets, plantDeprecatedUses } from '@binnacle/agent/testing';
import { docsScreenshot, openPage, seriousA11yViolations, testCluster, waitUntil } from '@binnacle/testkit';
import { CustomObjectsApi } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentInBrowser } from './browser-suite.ts';

// The Upgrade readiness page (docs/upgrade-readiness.md) in Chromium: planted uses of removed APIs (last-applied
// copies, a Helm release, an Argo CD Application), a CRD serving a deprecated version that a client then asks.
const custom = testCluster().kubeConfig('admin').makeApiClient(CustomObjectsApi);
const web = agentInBrowser('web-upgrade');
const group = 'web-upgrade.binnacle.test';
let removeCrd: (() => Promise<void>) | undefined;

beforeAll(async () => {
  await plantDeprecatedUses(web.ns.name);
  removeCrd = await deprecatedWidgets(group);
  const ask = () =>
    custom.listNamespacedCustomObject({
      group,
      version: 'v1beta1',
      namespace: web.ns.name,
      plural: 'widgets',
    });
  // A client still asking for the deprecated version: the API server's gauge counts it.
  await waitUntil('the CRD served', () => ask().then(() => true), { timeoutMs: 20_000 });
  await waitUntil(
    'the planted uses in the report',
    async () => {
      const report = await web.agent.json<{ findings: { namespace?: string }[] }>('/api/upgrade-readiness');
      return report.findings.filter((f) => f.namespace === web.ns.name).length >= 5;
    },
    { timeoutMs: 20_000 },
  );
});
afterAll(async () => {
  await removeCrd?.();
});

describe('the Upgrade readiness page', () => {
  it('groups the uses of removed APIs by where they were found, each with its replacement, for a chosen target', async () => {
    const page = await openPage(web.browser, `${web.agent.url}/`);
    await page
      .getByRole('navigation', { name: 'Areas' })
      .getByRole('link', { name: 'Upgrade readiness' })
      .click();
    await page.getByRole('heading', { name: 'Upgrade readiness', exact: true, level: 1 }).waitFor();

    const objects = page.getByRole('region', { name: 'Live objects' });
    const pdb = objects.getByRole('row').filter({ hasText: `${web.ns.name}/shop-pdb` });
    await pdb.waitFor();
    expect(await pdb.textContent()).toContain('policy/v1beta1→ policy/v1');
    await expect.poll(() => pdb.getByText('already removed').count()).toBe(1);
    const helm = page.getByRole('region', { name: 'Helm releases' });
    // Other files plant their own uses meanwhile: this file's are those of its namespace.
    await helm
      .getByRole('row')
      .filter({ hasText: `${web.ns.name}/` })
      .filter({ hasText: 'batch/v1beta1' })
      .filter({ hasText: '→ batch/v1' })
      .waitFor();
    await helm
      .getByRole('link', { name: `release ${web.ns.name}/legacy-shop rev 3 (legacy-shop)` })
      .first()
      .waitFor();
    const gitops = page.getByRole('region', { name: 'GitOps' });
    await gitops.getByRole('link', { name: `Application ${web.ns.name}/legacy-ingress` }).waitFor();
    const served = page.getByRole('region', { name: 'Served API versions' });
    await served
      .getByRole('row')
      .filter({ hasText: `${group}/v1beta1` })
      .filter({ hasText: `→ ${group}/v1` })
      .waitFor();
    const figures = page.getByRole('region', { name: 'API server figures' });
    await figures.getByText(`widgets ${group}/v1beta1`).waitFor();

    // Another target: the URL keeps it, the tiles name it.
    const picker = page.getByLabel('Target release');
    const next = await picker.locator('option').nth(2).getAttribute('value');
    await picker.selectOption(next ?? '');
    // The router keeps a release a string in the URL: `target="1.38"`.
    await expect.poll(() => new URL(page.url()).searchParams.get('target')).toBe(`"${next}"`);
    await page.getByRole('region', { name: 'Summary' }).getByText(`Removed in ${next}`).waitFor();
    await picker.selectOption('');

    // The tile filters: only what is already removed.
    await page
      .getByRole('region', { name: 'Summary' })
      .getByRole('button', { name: /^Already removed/ })
      .click();
    await page.waitForURL(/status=already-removed/);
    expect(await served.count()).toBe(0);
    await pdb.waitFor();
    await page
      .getByRole('region', { name: 'Summary' })
      .getByRole('button', { name: /^Findings/ })
      .click();
    await served.waitFor();

    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('heading', { name: 'Upgrade readiness', exact: true }).evaluate((e) => {
      const main = e.closest('main');
      if (main) main.scrollTop = 0;
    });
    await docsScreenshot(page, 'upgrade-readiness');
    await page.close();
  });
});
