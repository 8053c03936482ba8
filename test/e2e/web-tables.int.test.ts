import { startTestAgent, type TestAgent } from '@binnacle/agent/testing';
import {
  docsScreenshot,
  launchBrowser,
  openPage,
  seriousA11yViolations,
  testCluster,
} from '@binnacle/testkit';
import { CoreV1Api } from '@kubernetes/client-node';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const cluster = testCluster();
const core = cluster.kubeConfig('admin').makeApiClient(CoreV1Api);
let agent: TestAgent;
let browser: Browser;
let ns: { name: string; remove: () => Promise<void> };
let page: Page;
/** Every request the page made to the table API, in order. */
const tableRequests: string[] = [];

const longName = 'storefront-checkout-worker-with-a-long-generated-suffix-7f9c8d';
const pod = (name: string) =>
  core.createNamespacedPod({
    namespace: ns.name,
    body: { metadata: { name }, spec: { containers: [{ name: 'main', image: 'busybox:1.37' }] } },
  });

beforeAll(async () => {
  [agent, browser, ns] = await Promise.all([startTestAgent(), launchBrowser(), cluster.namespace('tables')]);
  for (const name of [longName, 'web-2', 'web-10']) await pod(name);
  page = await openPage(browser, `${agent.url}/resources/pods?namespace=${ns.name}`);
  await page.setViewportSize({ width: 1024, height: 700 });
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/tables/')) tableRequests.push(request.url());
  });
  await page.reload();
});
afterAll(async () => {
  await Promise.all([page?.context().close(), browser?.close(), agent?.close(), ns?.remove()]);
});

const table = () => page.getByRole('region', { name: 'Pod objects' });
const names = () => table().getByRole('row').getByRole('link').allTextContents();
const sortButton = (name: string) => table().getByRole('button', { name, exact: true });
const header = (name: string) =>
  table()
    .getByRole('columnheader')
    .filter({ has: page.getByRole('button', { name, exact: true }) });

describe('the resources table at 1024 × 700', () => {
  it('shows whole names, the exact total, and no serious accessibility violations', async () => {
    const link = table().getByRole('link', { name: longName });
    await link.waitFor();
    await page.getByRole('heading', { name: /^Pod\s*3$/ }).waitFor();
    // Readable: the NAME column keeps its minimum width, and the full name is the link's title.
    expect((await header('NAME').boundingBox())?.width).toBeGreaterThanOrEqual(200);
    expect(await link.getAttribute('title')).toBe(longName);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'resources-pods-1024');
  });

  it('sorts by a header, in natural order, and says so with aria-sort', async () => {
    await sortButton('NAME').click();
    await page.waitForURL(/sort=name/);
    expect(await header('NAME').getAttribute('aria-sort')).toBe('ascending');
    await expect.poll(names).toEqual([longName, 'web-2', 'web-10']);
    await sortButton('NAME').click();
    await page.waitForURL(/order=desc/);
    expect(await header('NAME').getAttribute('aria-sort')).toBe('descending');
    await expect.poll(names).toEqual(['web-10', 'web-2', longName]);
  });

  it('resizes a column from the keyboard and remembers the width for the kind', async () => {
    const handle = table().getByRole('separator', { name: 'Resize NAMESPACE' });
    const before = Number(await handle.getAttribute('aria-valuenow'));
    await handle.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => Number(await handle.getAttribute('aria-valuenow'))).toBe(before + 16);
    const stored = await page.evaluate(() => localStorage.getItem('binnacle.table-widths.pods'));
    expect(JSON.parse(stored ?? '{}')).toMatchObject({ namespace: before + 16 });
  });

  it('focuses the filter with /, and filters on the agent', async () => {
    await table().focus();
    await page.keyboard.press('/');
    expect(await page.locator(':focus').getAttribute('aria-keyshortcuts')).toBe('/');
    await page.keyboard.type('web-');
    await page.keyboard.press('Enter');
    await page.waitForURL(/q=web-/);
    await expect.poll(names).toEqual(['web-10', 'web-2']);
    await page.getByRole('heading', { name: /^Pod\s*2$/ }).waitFor();
  });

  it('shows a pod created while it is open from the stream, without asking for the kind again', async () => {
    const before = tableRequests.length;
    await pod('web-3');
    await expect.poll(names, { timeout: 10_000 }).toEqual(['web-10', 'web-3', 'web-2']);
    await page.getByRole('heading', { name: /^Pod\s*3$/ }).waitFor();
    expect(tableRequests.slice(before)).toEqual([]);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});
