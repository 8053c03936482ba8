import { crashLoopingPod } from '@binnacle/agent/testing';
import { docsScreenshot, openPage, seriousA11yViolations, testCluster } from '@binnacle/testkit';
import { CoreV1Api } from '@kubernetes/client-node';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { agentInBrowser } from './browser-suite.ts';

const cluster = testCluster();
const core = cluster.kubeConfig('admin').makeApiClient(CoreV1Api);
const web = agentInBrowser('tables');
let page: Page;
/** Every request the page made to the table API, in order. */
const tableRequests: string[] = [];

const longName = 'storefront-checkout-worker-with-a-long-generated-suffix-7f9c8d';
const pod = (name: string) =>
  core.createNamespacedPod({
    namespace: web.ns.name,
    body: { metadata: { name }, spec: { containers: [{ name: 'main', image: 'busybox:1.37' }] } },
  });

beforeAll(async () => {
  for (const name of [longName, 'web-2', 'web-10']) await pod(name);
  page = await openPage(web.browser, `${web.agent.url}/resources/pods?namespace=${web.ns.name}`);
  await page.setViewportSize({ width: 1024, height: 700 });
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/tables/')) tableRequests.push(request.url());
  });
  await page.reload();
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
    // One namespace: sorted by NAME from the start (no NAMESPACE column, as kubectl), so a click turns it round.
    expect(await header('NAME').getAttribute('aria-sort')).toBe('ascending');
    await expect.poll(names).toEqual([longName, 'web-2', 'web-10']);
    await sortButton('NAME').click();
    await page.waitForURL(/sort=name&order=desc/);
    expect(await header('NAME').getAttribute('aria-sort')).toBe('descending');
    await expect.poll(names).toEqual(['web-10', 'web-2', longName]);
  });

  it('resizes a column from the keyboard and remembers the width for the kind', async () => {
    const handle = table().getByRole('separator', { name: 'Resize AGE' });
    const before = Number(await handle.getAttribute('aria-valuenow'));
    await handle.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => Number(await handle.getAttribute('aria-valuenow'))).toBe(before + 16);
    const stored = await page.evaluate(() => localStorage.getItem('binnacle.table-widths.pods'));
    expect(JSON.parse(stored ?? '{}')).toMatchObject({ AGE: before + 16 });
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

describe('statuses as pills, and the rows kept while the agent is unreachable', () => {
  /** Error messages in place of what was shown (a toast about a failed refresh is not one). */
  const errorsShown = () =>
    page
      .getByRole('alert')
      .filter({ hasText: /Could not load/ })
      .count();
  const statusFilter = () => page.getByRole('combobox', { name: /^Status/ });
  const pill = (name: string, status: string) =>
    table()
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name, exact: true }) })
      .getByText(status, { exact: true });

  it("opens the dashboard's link form filtered, toning kubectl's STATUS and counting each status", async () => {
    await crashLoopingPod(web.ns.name, 'crasher');
    await page.goto(`${web.agent.url}/resources/pods?namespace=${web.ns.name}&status=CrashLoopBackOff`);
    await expect.poll(names, { timeout: 10_000 }).toEqual(['crasher']);
    expect(await statusFilter().inputValue()).toBe('CrashLoopBackOff');
    expect(await statusFilter().locator('option').allTextContents()).toEqual([
      'All statuses',
      'Running (4)',
      'CrashLoopBackOff (1)',
    ]);
    expect(await pill('crasher', 'CrashLoopBackOff').getAttribute('class')).toContain('bg-red-100');

    await statusFilter().selectOption('');
    await expect.poll(() => names().then((n) => n.length)).toBe(5);
    expect(await pill('web-2', 'Running').getAttribute('class')).toContain('bg-emerald-100');
    await statusFilter().selectOption('CrashLoopBackOff');
    await page.waitForURL(/status=CrashLoopBackOff/);
    await expect.poll(names).toEqual(['crasher']);

    // Several statuses, comma-separated as the dashboard's links have them, are one choice of the filter.
    await page.goto(
      `${web.agent.url}/resources/pods?namespace=${web.ns.name}&status=CrashLoopBackOff,Running`,
    );
    await expect.poll(() => names().then((n) => n.length), { timeout: 10_000 }).toBe(5);
    expect(await statusFilter().inputValue()).toBe('CrashLoopBackOff,Running');
    expect(await seriousA11yViolations(page)).toEqual([]);

    const dark = await openPage(
      web.browser,
      `${web.agent.url}/resources/pods?namespace=${web.ns.name}`,
      'dark',
    );
    await dark
      .getByRole('region', { name: 'Pod objects' })
      .getByText('CrashLoopBackOff', { exact: true })
      .waitFor();
    expect(await seriousA11yViolations(dark)).toEqual([]);
    await dark.context().close();
  });

  it('keeps the rows on screen, marked stale, while the agent is unreachable, then goes live again', async () => {
    await page.goto(`${web.agent.url}/resources/pods?namespace=${web.ns.name}`);
    await expect.poll(() => names().then((n) => n.length), { timeout: 10_000 }).toBe(5);
    // The page cannot reach the agent again; the connections it has are dropped by the agent's server.
    const api = (url: URL) => url.pathname.startsWith('/api/');
    await page.route(api, (route) => route.abort('connectionrefused'));
    web.agent.agent.app.server.closeAllConnections();
    await page.getByText('Live updates paused — reconnecting').waitFor();
    expect((await names()).length).toBe(5);
    expect(await errorsShown()).toBe(0);

    await page.unroute(api);
    await page
      .getByText('Live updates paused — reconnecting')
      .waitFor({ state: 'detached', timeout: 30_000 });
    await pod('web-4');
    await expect.poll(names, { timeout: 10_000 }).toContain('web-4');
  });

  it('keeps an object page with its last state, saying so, when refreshing it fails', async () => {
    await table().getByRole('link', { name: 'crasher', exact: true }).click();
    await page.getByRole('heading', { name: `Pod ${web.ns.name}/crasher` }).waitFor();
    const notice = page.getByText(/^Could not refresh — showing the state of \d\d:\d\d:\d\d\./);
    // A refetch happens when the page becomes visible again (and every 10 s): make one now rather than wait.
    const noticeAfterRefetch = async () => {
      await page.evaluate("window.dispatchEvent(new Event('visibilitychange'))");
      return notice.isVisible();
    };
    const resources = (url: URL) => url.pathname.startsWith('/api/resources/');
    await page.route(resources, (route) => route.abort('connectionrefused'));
    await expect.poll(noticeAfterRefetch, { timeout: 30_000, interval: 1000 }).toBe(true);
    expect(await page.getByRole('heading', { name: `Pod ${web.ns.name}/crasher` }).isVisible()).toBe(true);
    expect(await page.getByLabel('Object YAML').textContent()).toMatch(/CrashLoopBackOff/);
    expect(await errorsShown()).toBe(0);

    await page.unroute(resources);
    await expect.poll(noticeAfterRefetch, { timeout: 30_000, interval: 1000 }).toBe(false);
  });
});
