import { randomBytes } from 'node:crypto';
import { type PlantedStates, plantEcosystemStates } from '@binnacle/agent/testing';
import { docsScreenshot, openPage, seriousA11yViolations, testCluster } from '@binnacle/testkit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentInBrowser } from './browser-suite.ts';

/**
 * cert-manager's objects in their states (packages/agent/src/testing/ecosystem/cert-manager.ts) in real Chromium:
 * a failing Certificate's page says why at the top, the Certificates table colours its HEALTH column.
 */
const cluster = testCluster();
const web = agentInBrowser('eco-web');
const prefix = `web${randomBytes(3).toString('hex')}`;
let page: Page;
let planted: PlantedStates;

beforeAll(async () => {
  planted = await plantEcosystemStates(cluster.kubeconfigPath('admin'), web.ns.name, prefix, [
    'cert-manager',
  ]);
  page = await openPage(web.browser, `${web.agent.url}/`);
}, 120_000);
afterAll(async () => {
  await planted?.remove();
});

describe('custom resources’ health in the browser', () => {
  it('opens a failing Certificate on its health: the word, the deciding condition and its message', async () => {
    await page.goto(
      `${web.agent.url}/resources/certificates.cert-manager.io/${web.ns.name}/${prefix}-cert-failed`,
    );
    const card = page.getByRole('region', { name: 'Health' });
    const why = card.getByTestId('health-why');
    await why.getByText('unhealthy', { exact: true }).waitFor();
    await why.getByText('Issuing: Failed').waitFor();
    await why.getByText(/The certificate request has failed to complete and will be retried/).waitFor();
    const conditions = card.getByRole('table', { name: 'Conditions' });
    await conditions.getByRole('cell', { name: 'Issuing', exact: true }).waitFor();
    await conditions.getByRole('cell', { name: 'DoesNotExist', exact: true }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'ecosystem-certificate-failed');
  });

  it('lists Certificates with the CRD’s columns, their expiry and a coloured HEALTH with its reason', async () => {
    await page.goto(`${web.agent.url}/resources/certificates.cert-manager.io?namespace=${web.ns.name}`);
    // A header's sort button carries its name.
    const header = (name: string) => page.getByRole('button', { name, exact: true });
    await header('HEALTH').waitFor();
    for (const name of ['READY', 'SECRET', 'NOT AFTER', 'HEALTH REASON']) await header(name).waitFor();
    const row = (name: string) => page.getByRole('row').filter({ hasText: name });
    await row(`${prefix}-cert-failed`).getByText('unhealthy', { exact: true }).waitFor();
    await row(`${prefix}-cert-failed`).getByText('Issuing: Failed').waitFor();
    await row(`${prefix}-cert-issuing`).getByText('degraded', { exact: true }).waitFor();
    await row(`${prefix}-cert-issuing`).getByText('Issuing: DoesNotExist').waitFor();
    await page
      .getByRole('row')
      .filter({ hasText: `${prefix}-cert-tls` })
      .getByText('healthy', { exact: true })
      .waitFor();
    // The status filter offers the health words.
    await page
      .getByRole('combobox', { name: 'Status' })
      .getByRole('option', { name: /^unhealthy \(1\)$/ })
      .waitFor({ state: 'attached' });
    // Velero's and CloudNativePG's Backup share a name: the kind list tells them apart by their group.
    const kinds = page.getByRole('navigation', { name: 'Kinds' });
    await kinds.getByRole('link', { name: /^Backup velero\.io/ }).waitFor();
    await kinds.getByRole('link', { name: /^Backup postgresql\.cnpg\.io/ }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'ecosystem-certificates-table');
  });
});
