import { startTestAgent, type TestAgent } from '@binnacle/agent/testing';
import {
  docsScreenshot,
  type HubbleFlowMessage,
  type HubbleServer,
  hubbleFlow,
  launchBrowser,
  openPage,
  seriousA11yViolations,
  startHubbleServer,
  testCluster,
  world,
} from '@binnacle/testkit';
import { CoreV1Api, type V1Pod } from '@kubernetes/client-node';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The seeded shop's pods, with their real IPs, are the ends of the flows the Hubble stand-in serves; nothing in
// the cluster is changed.
const core = testCluster().kubeConfig('admin').makeApiClient(CoreV1Api);
let hubble: HubbleServer;
/** Reads the Hubble stand-in through --hubble-address. */
let agent: TestAgent;
/** Has no traffic source at all. */
let bare: TestAgent;
let browser: Browser;
let shop: { storefront: V1Pod[]; checkout: V1Pod[]; postgres: V1Pod; billing: V1Pod };

interface End {
  id: string;
  kind: string;
  name: string;
  namespace?: string;
}
interface Pair {
  id: string;
  source: End;
  destination: End;
  flows: number;
  connections: number;
  requests: number;
  requestRate: number;
  errorRate: number;
  verdicts: Record<string, number>;
}
type Flows = { available: true; pairs: Pair[] };

async function running(namespace: string, selector?: string): Promise<V1Pod[]> {
  const pods = await core.listNamespacedPod({ namespace, labelSelector: selector });
  return pods.items.filter((p) => p.status?.phase === 'Running' && p.status.podIP);
}

/**
 * A shop at work 20 s ago: the outside world calls storefront, storefront calls checkout over HTTP (one answer in
 * three a 503), checkout holds connections to postgres, and storefront's own attempt at postgres is dropped.
 */
function shopFlows(time: number): HubbleFlowMessage[] {
  const flows: HubbleFlowMessage[] = [];
  for (const [i, storefront] of shop.storefront.entries()) {
    const checkout = shop.checkout[i % shop.checkout.length] as V1Pod;
    flows.push(
      hubbleFlow(world('203.0.113.10'), storefront, { time, syn: true }),
      hubbleFlow(world('203.0.113.10'), storefront, { time, http: { type: 'REQUEST', url: '/' } }),
      hubbleFlow(world('203.0.113.10'), storefront, { time, http: { type: 'RESPONSE', code: 200 } }),
      hubbleFlow(storefront, checkout, { time, syn: true }),
    );
    for (const code of [200, 200, 503])
      flows.push(
        hubbleFlow(storefront, checkout, { time, http: { type: 'REQUEST', method: 'POST', url: '/orders' } }),
        hubbleFlow(storefront, checkout, { time, http: { type: 'RESPONSE', code, latencyMs: 12 } }),
      );
  }
  for (const checkout of shop.checkout)
    flows.push(
      hubbleFlow(checkout, shop.postgres, { time, port: 5432, syn: true }),
      hubbleFlow(checkout, shop.postgres, { time, port: 5432 }),
    );
  const [storefront] = shop.storefront as [V1Pod];
  flows.push(hubbleFlow(storefront, shop.postgres, { time, port: 5432, syn: true, verdict: 'DROPPED' }));
  return flows;
}

beforeAll(async () => {
  const [storefront, checkout, [postgres], billings] = await Promise.all([
    running('demo-shop', 'app.kubernetes.io/name=storefront'),
    running('demo-shop', 'app.kubernetes.io/name=checkout'),
    running('demo-data', 'app.kubernetes.io/name=postgres'),
    running('demo-billing'),
  ]);
  const billing = billings.find((p) => p.metadata?.ownerReferences?.[0]?.name.startsWith('billing-'));
  if (!postgres || !billing || storefront.length === 0 || checkout.length === 0)
    throw new Error('the seeded shop, postgres and billing pods are not running');
  shop = { storefront, checkout, postgres, billing };
  hubble = await startHubbleServer({ flows: shopFlows(Date.now() - 20_000) });
  [agent, bare, browser] = await Promise.all([
    startTestAgent({ config: { hubbleAddress: hubble.address } }),
    startTestAgent(),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), agent?.close(), bare?.close(), hubble?.close()]);
});

const dataRows = (table: Locator) => table.locator(':scope > tbody > tr');
const label = (end: End) => (end.namespace ? `${end.namespace}/${end.name}` : end.name);
const row = (table: Locator, pair: Pair) =>
  dataRows(table).filter({
    has: table.page().getByRole('button', {
      name: `Highlight ${label(pair.source)} → ${label(pair.destination)} on the map`,
    }),
  });
/** The map's arrow of a pair, named `Deployment storefront to Deployment checkout, TCP 8080: …`. */
const edge = (map: Locator, pair: Pair) =>
  map.getByRole('img', {
    name: new RegExp(
      `^${pair.source.kind} ${pair.source.name} to ${pair.destination.kind} ${pair.destination.name}, `,
    ),
  });
/** As the page writes them: two significant digits, a dash without requests. */
const perSecond = (p: Pair) => (p.requests > 0 ? String(Number(p.requestRate.toPrecision(2))) : '—');
const errorRate = (p: Pair) => (p.requests > 0 ? `${Math.round(p.errorRate * 100)}%` : '—');

/** Every pair of the agent's answer is a row with its numbers and an arrow on the map, and nothing else is. */
async function expectPairs(page: Page, flows: Flows): Promise<void> {
  const table = page.getByRole('table', { name: 'Flows' });
  const map = page.getByRole('region', { name: 'Traffic map' });
  await expect.poll(() => dataRows(table).count(), { timeout: 10_000 }).toBe(flows.pairs.length);
  await expect
    .poll(() => map.locator('[aria-roledescription="edge"]').count(), { timeout: 10_000 })
    .toBe(flows.pairs.length);
  for (const pair of flows.pairs) {
    const cells = (await row(table, pair).getByRole('cell').allTextContents()).map((t) => t.trim());
    expect(cells[0]).toBe(`${pair.source.kind}${label(pair.source)}`);
    expect(cells[1]).toBe(`${pair.destination.kind}${label(pair.destination)}`);
    expect(cells.slice(3, 7)).toEqual([
      String(pair.flows),
      String(pair.connections),
      perSecond(pair),
      errorRate(pair),
    ]);
    const dropped = pair.verdicts.dropped ?? 0;
    expect(cells[7]).toBe(dropped > 0 ? `${dropped} of ${pair.flows} dropped` : 'forwarded');
    await edge(map, pair).waitFor();
  }
}

describe('the traffic page', () => {
  it("draws the API's flows as a map and a table; a row or a line picks out its pair; nodes open their objects", async () => {
    const flows = await agent.json<Flows>('/api/traffic/flows');
    const ids = flows.pairs.map((p) => p.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'external/203.0.113.10→deployment/demo-shop/storefront',
        'deployment/demo-shop/storefront→deployment/demo-shop/checkout',
        'deployment/demo-shop/checkout→statefulset/demo-data/postgres',
        'deployment/demo-shop/storefront→statefulset/demo-data/postgres',
      ]),
    );
    const page = await openPage(browser, `${agent.url}/`);
    await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Traffic' }).click();
    await page.getByRole('heading', { name: 'Traffic', exact: true, level: 1 }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: `Live · ${flows.pairs.length} pairs from Hubble` })
      .waitFor();
    const sources = page.getByRole('list', { name: 'Detected sources' });
    expect(await sources.getByRole('listitem').allTextContents()).toEqual([
      'Hubble: active',
      'Istio: not found',
      'Caretta: not found',
      'Beyla: not found',
    ]);
    await expectPairs(page, flows);

    // The 503s and the dropped attempt are labelled on their lines.
    const map = page.getByRole('region', { name: 'Traffic map' });
    const orders = flows.pairs.find((p) => p.id.endsWith('storefront→deployment/demo-shop/checkout')) as Pair;
    await map.getByText(`${perSecond(orders)} req/s · ${errorRate(orders)} 5xx`).waitFor();
    await map.getByText('1 flow · 1 dropped').waitFor();

    // A row's button picks its pair out: the other lines fade.
    const table = page.getByRole('table', { name: 'Flows' });
    const highlight = row(table, orders).getByRole('button');
    await highlight.click();
    expect(await highlight.getAttribute('aria-pressed')).toBe('true');
    const faded = async (pair: Pair) =>
      (await edge(map, pair).locator('path.react-flow__edge-path').getAttribute('style'))?.includes(
        'opacity: 0.25',
      );
    const other = flows.pairs.find((p) => p !== orders) as Pair;
    expect(await faded(orders)).toBe(false);
    expect(await faded(other)).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'traffic');

    // A click on a line picks out its row.
    // Its label: the middle of a routed line may lie under a box.
    await edge(map, other).locator('.react-flow__edge-textwrapper').click();
    expect(await row(table, other).getByRole('button').getAttribute('aria-pressed')).toBe('true');
    expect(await highlight.getAttribute('aria-pressed')).toBe('false');

    // Sorting by a column: the busiest pair by flows first, then last.
    const byFlows = [...flows.pairs].sort((a, b) => b.flows - a.flows || a.id.localeCompare(b.id));
    await table.getByRole('button', { name: 'Flows' }).click();
    const first = async () => (await dataRows(table).first().getByRole('cell').nth(3).textContent())?.trim();
    expect(await table.getByRole('columnheader', { name: 'Flows' }).getAttribute('aria-sort')).toBe(
      'ascending',
    );
    expect(await first()).toBe(String(byFlows.at(-1)?.flows));
    await table.getByRole('button', { name: 'Flows' }).click();
    expect(await first()).toBe(String(byFlows[0]?.flows));

    // The shell's namespace narrows the pairs to those with an end there, as the agent does.
    const data = await agent.json<Flows>('/api/traffic/flows?namespace=demo-data');
    await page.getByRole('banner').getByLabel('Namespace').selectOption('demo-data');
    await page.getByRole('heading', { name: 'Traffic · demo-data', level: 1 }).waitFor();
    await expectPairs(page, data);

    // A node is a link to its object's page.
    await map.getByRole('link', { name: 'StatefulSet postgres' }).click();
    await page.getByRole('heading', { name: 'StatefulSet demo-data/postgres' }).waitFor();
    await page.context().close();
  });

  it('adds a flow that arrives while the page is open, without a reload', async () => {
    const page = await openPage(browser, `${agent.url}/traffic`, 'dark');
    const before = await agent.json<Flows>('/api/traffic/flows');
    await expectPairs(page, before);
    await page.evaluate(() => {
      (globalThis as { notReloaded?: boolean }).notReloaded = true;
    });
    const [checkout] = shop.checkout as [V1Pod];
    hubble.inject(
      hubbleFlow(checkout, shop.billing, { syn: true }),
      hubbleFlow(checkout, shop.billing, { http: { type: 'REQUEST', method: 'POST', url: '/invoices' } }),
      hubbleFlow(checkout, shop.billing, { http: { type: 'RESPONSE', code: 201 } }),
    );
    const map = page.getByRole('region', { name: 'Traffic map' });
    await map
      .getByRole('img', { name: /^Deployment checkout to Deployment billing, / })
      .waitFor({ timeout: 10_000 });
    const after = await agent.json<Flows>('/api/traffic/flows');
    expect(after.pairs.length).toBe(before.pairs.length + 1);
    await expectPairs(page, after);
    expect(await page.evaluate(() => (globalThis as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'traffic-dark');
    await page.context().close();
  });

  it('says there is no source and what to install, as a state of the cluster and not an error', async () => {
    const flows = await bare.json<{
      available: false;
      reason: string;
      recommendation: { installCommand: string };
    }>('/api/traffic/flows');
    expect(flows.available).toBe(false);
    const page = await openPage(browser, `${bare.url}/traffic`);
    const empty = page.getByRole('region', { name: 'No traffic source' });
    await empty.getByText(flows.reason, { exact: false }).waitFor();
    expect(await empty.getByRole('region', { name: 'Install it' }).textContent()).toContain(
      flows.recommendation.installCommand,
    );
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.getByRole('table', { name: 'Flows' }).count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.context().close();
  });
});

describe('the topology with traffic', () => {
  it("adds the agent's traffic edges to the resource graph when asked", async () => {
    const page = await openPage(browser, `${agent.url}/topology?namespace=demo-shop`);
    const graph = page.getByRole('region', { name: 'Topology graph' });
    await graph.getByRole('link', { name: 'Deployment checkout' }).waitFor();
    expect(
      await graph.getByRole('img', { name: /^Deployment storefront to Deployment checkout, / }).count(),
    ).toBe(0);
    await page.getByLabel('Traffic of the last 5 minutes').check();
    await page.waitForURL(/traffic=true/);
    await graph
      .getByRole('img', { name: /^Deployment storefront to Deployment checkout, TCP 8080: / })
      .waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.context().close();
  });
});
