import { startTestAgent, type TestAgent } from '@binnacle/agent/testing';
import {
  docsScreenshot,
  launchBrowser,
  openPage,
  seriousA11yViolations,
  testCluster,
} from '@binnacle/testkit';
import { RbacAuthorizationV1Api } from '@kubernetes/client-node';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const cluster = testCluster();
const rbac = cluster.kubeConfig('admin').makeApiClient(RbacAuthorizationV1Api);
let agent: TestAgent;
let browser: Browser;
let page: Page;
let ns: { name: string; remove: () => Promise<void> };

beforeAll(async () => {
  [agent, browser, ns] = await Promise.all([startTestAgent(), launchBrowser(), cluster.namespace('pages')]);
  page = await openPage(browser, `${agent.url}/`);
});
afterAll(async () => {
  await Promise.all([browser?.close(), agent?.close(), ns?.remove()]);
});

/** Opens an object's page in the one shared page and waits for its details card to load. */
async function visit(path: string, card: string) {
  await page.goto(`${agent.url}/resources/${path}`);
  const region = page.getByRole('region', { name: card });
  await region.waitFor();
  return region;
}

/** The details card at the top of the window, then axe, then the docs' screenshot of it. */
async function checkAndShoot(card: string, image: string) {
  await page.getByRole('region', { name: card }).evaluate((e) => e.scrollIntoView({ block: 'start' }));
  expect(await seriousA11yViolations(page)).toEqual([]);
  await docsScreenshot(page, image);
}

describe('the object pages of each kind', () => {
  it('shows a Deployment rollout in words, its revisions and its pods', async () => {
    const rollout = await visit('deployments/demo-shop/storefront', 'Rollout');
    await rollout.getByText(/Rolled out: \d+ of \d+ replicas updated and available/).waitFor();
    await expect.poll(() => rollout.getByLabel('Rollout facts').textContent()).toContain('RollingUpdate');
    await rollout.getByRole('cell', { name: 'Available', exact: true }).waitFor();
    await page.getByRole('table', { name: 'Revisions' }).getByText('current').waitFor();
    await page
      .getByRole('region', { name: 'Pods' })
      .getByRole('link', { name: /storefront-/ })
      .first()
      .waitFor();
    await checkAndShoot('Rollout', 'object-deployment');
  });
});
