import {
  docsScreenshot,
  launchBrowser,
  seriousA11yViolations,
  startTestAgent,
  type TestAgent,
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

beforeAll(async () => {
  [agent, browser, ns] = await Promise.all([startTestAgent(), launchBrowser(), cluster.namespace('web')]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), agent?.close(), ns?.remove()]);
});

async function open(path: string, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme });
  const page = await context.newPage();
  await page.goto(`${agent.url}${path}`);
  return page;
}

describe('the web UI served by the agent', () => {
  it('shows the dashboard of the seeded cluster, with no serious accessibility violations', async () => {
    const page = await open('/');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByText('billing 1.2.0').waitFor();
    const counts = page.getByRole('region', { name: 'Resource counts' });
    expect(await counts.getByText('Deployments').count()).toBe(1);
    expect(await page.getByRole('status').filter({ hasText: 'Connected' }).count()).toBe(1);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'dashboard');
    await page.context().close();
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
    const page = await open(`/timeline?namespace=${ns.name}`);
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    await core.createNamespacedConfigMap({
      namespace: ns.name,
      body: { metadata: { name: 'web-settings' }, data: { mode: 'calm' } },
    });
    const rows = page.getByRole('list', { name: 'Changes' }).getByRole('button');
    await rows.filter({ hasText: 'web-settings' }).first().waitFor();
    const live = await core.readNamespacedConfigMap({ namespace: ns.name, name: 'web-settings' });
    await core.replaceNamespacedConfigMap({
      namespace: ns.name,
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

  it('answers a page path with the UI and an unknown API path with a JSON 404', async () => {
    const page = await open('/no/such/page');
    await page.getByRole('heading', { name: 'No such page' }).waitFor();
    await page.context().close();
    const api = await agent.request('/api/no-such-route');
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ code: 'route_not_found' });
  });

  it('lets browsers keep hashed assets and never index.html', async () => {
    const index = await agent.request('/deep/link');
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toBe('no-store');
    const html = await index.text();
    expect(html).toContain('<base href="/" />');
    const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await agent.request(`/${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const missing = await agent.request('/assets/nothing-here.js');
    expect(missing.status).toBe(404);
  });
});
