import { type CostFigures as Figures, startTestAgent, type TestAgent } from '@binnacle/agent/testing';
import {
  clusterInventory,
  docsScreenshot,
  type GeneratedMetrics,
  generateMetrics,
  launchBrowser,
  type MetricsStoreServer,
  metricsStoreServiceLock,
  openPage,
  seriousA11yViolations,
  startPrometheus,
  testCluster,
  waitUntil,
} from '@binnacle/testkit';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatCores,
  formatMoney,
  formatValue,
  hoursPerMonth,
  type Unit,
} from '../../packages/web/src/ui/units.ts';

/**
 * The cost page, the metrics charts of object pages and rightsizing, in Chromium against an agent reading a real
 * Prometheus that holds six hours of seeded series for the test cluster's real pods and nodes. What the pages
 * show is compared with the JSON the agent gave them (its figures are checked against the seeds in the agent's
 * own tests), written with the UI's unit formatting.
 */
const cluster = testCluster();
let metrics: GeneratedMetrics;
let prometheus: MetricsStoreServer;
let agent: TestAgent;
let bare: TestAgent;
let browser: Browser;

beforeAll(async () => {
  metrics = generateMetrics(await clusterInventory(cluster.kubeConfig()), { seed: 7 });
  [prometheus, browser, bare] = await Promise.all([
    startPrometheus(metrics, { log: (line) => process.stderr.write(`[web-cost] ${line}\n`) }),
    launchBrowser(),
    startTestAgent(),
  ]);
  agent = await startTestAgent({ config: { metricsdbUrl: prometheus.url } });
}, 300_000);

afterAll(async () => {
  await Promise.all([browser?.close(), agent?.close(), bare?.close(), prometheus?.stop()]);
});

interface Summary extends Figures {
  available: true;
  window: string;
  windowCost: number;
  idleCost?: number;
  namespaces: (Figures & { name: string; pods: number })[];
}
interface Workloads {
  workloads: (Figures & { kind: string; namespace: string; name: string; pods: number })[];
}
interface Nodes {
  nodes: { name: string; instanceType?: string; region?: string; hourlyCost: number }[];
}
interface Trend {
  series: { namespace: string; points: [number, number][] }[];
}
interface Chart {
  available: true;
  range: string;
  series: { name: string; labels: Record<string, string>; points: [number, number | null][] }[];
}
interface Recommendation {
  kind: string;
  name: string;
  containers: {
    container: string;
    current: { cpuRequestCores?: number; memoryRequestBytes?: number };
    recommended: { cpuRequestCores?: number; memoryRequestBytes?: number };
    cpu: string;
    memory: string;
  }[];
}

/** The JSON of every metrics and cost answer the page received, newest last. */
function recordAnswers(page: Page) {
  const seen: { url: URL; body: unknown }[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (!/^\/api\/(cost|metricsdb)\//.test(url.pathname)) return;
    response.json().then(
      (body) => seen.push({ url, body }),
      () => undefined,
    );
  });
  /** The newest answer of a path whose query has these parameters (waiting for it to arrive). */
  return async <T>(path: string, params: Record<string, string> = {}): Promise<T> => {
    const match = () =>
      seen.findLast(
        ({ url }) =>
          url.pathname === path && Object.entries(params).every(([k, v]) => url.searchParams.get(k) === v),
      );
    await waitUntil(
      `the page's answer from ${path} ${JSON.stringify(params)}`,
      () => Promise.resolve(Boolean(match())),
      {
        timeoutMs: 20_000,
        intervalMs: 50,
      },
    );
    return match()?.body as T;
  };
}

async function open(target: TestAgent, path: string, colorScheme?: 'light' | 'dark') {
  const page = await openPage(browser, 'about:blank', colorScheme);
  const answer = recordAnswers(page);
  await page.goto(`${target.url}${path}`);
  return { page, answer };
}

const cellTexts = async (row: Locator) =>
  (await row.getByRole('cell').allTextContents()).map((t) => t.trim());
const dataRows = (table: Locator) => table.locator(':scope > tbody > tr');
const percent = (e: number | null) => (e === null ? '—' : `${Math.round(e)}%`);
const month = (hourly: number) => formatMoney(hourly * hoursPerMonth);
/** The newest sample with a value, as the legend reports it. */
const latest = (points: [number, number | null][]) => points.findLast(([, v]) => v !== null)?.[1] as number;
const legendItem = (page: Page, chart: string, line: string) =>
  page
    .getByRole('list', { name: `${chart} legend` })
    .getByRole('listitem')
    .filter({ has: page.getByText(line, { exact: true }) });

describe('the cost page', () => {
  it('shows the totals, the namespaces most expensive first, the trend, and a namespace’s workloads', async () => {
    const { page, answer } = await open(agent, '/');
    await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Cost' }).click();
    await page.getByRole('heading', { name: 'Cost', exact: true, level: 1 }).waitFor();
    const summary = await answer<Summary>('/api/cost/summary', { window: '24h' });
    expect(summary.available).toBe(true);
    expect(summary.namespaces.length).toBeGreaterThan(1);

    const tiles = page.getByRole('region', { name: 'Cost per hour' });
    const tile = (label: string) =>
      tiles.locator(':scope > div').filter({ hasText: new RegExp(`^${label}`) });
    await expect
      .poll(() => tile('Per hour').textContent())
      .toBe(
        `Per hour${formatMoney(summary.hourlyCost)}≈ ${month(summary.hourlyCost)} a month · ${formatMoney(summary.windowCost)} in 24h`,
      );
    for (const [label, amount] of [
      ['CPU', summary.cpuCost],
      ['Memory', summary.memoryCost],
      ['Storage', summary.storageCost],
    ] as const)
      expect(await tile(label).textContent()).toMatch(
        new RegExp(`^${label}\\${formatMoney(amount)}\\d+% of the total$`),
      );
    expect(await tile('Idle').textContent()).toBe(
      `Idle${formatMoney(summary.idleCost ?? -1)}node cost no pod claims`,
    );
    expect(await tile('Efficiency').textContent()).toContain(percent(summary.efficiency));

    // Every namespace with its figures, the most expensive first.
    const table = page.getByRole('table', { name: 'Namespaces' });
    await expect.poll(() => dataRows(table).count()).toBe(summary.namespaces.length);
    const byCost = [...summary.namespaces].sort((a, b) => b.hourlyCost - a.hourlyCost);
    expect((await cellTexts(dataRows(table).first()))[0]).toBe(byCost[0]?.name);
    for (const ns of summary.namespaces) {
      const row = dataRows(table).filter({ has: page.getByRole('button', { name: ns.name, exact: true }) });
      expect(await cellTexts(row)).toEqual([
        ns.name,
        String(ns.pods),
        formatMoney(ns.hourlyCost),
        formatMoney(ns.cpuCost),
        formatMoney(ns.memoryCost),
        formatMoney(ns.storageCost),
        percent(ns.efficiency),
        month(ns.hourlyCost),
      ]);
    }
    // A heading sorts: pods, most first, then fewest first.
    const pods = table.getByRole('columnheader', { name: 'Pods' });
    await pods.getByRole('button').click();
    expect(await pods.getAttribute('aria-sort')).toBe('descending');
    const most = Math.max(...summary.namespaces.map((n) => n.pods));
    expect((await cellTexts(dataRows(table).first()))[1]).toBe(String(most));
    await pods.getByRole('button').click();
    expect(await pods.getAttribute('aria-sort')).toBe('ascending');
    const fewest = Math.min(...summary.namespaces.map((n) => n.pods));
    expect((await cellTexts(dataRows(table).first()))[1]).toBe(String(fewest));

    // The trend: a line per namespace (the most expensive ones), its legend giving the newest hourly cost.
    const trend = await answer<Trend>('/api/cost/trend', { window: '24h' });
    const top = [...trend.series].sort(
      (a, b) => b.points.reduce((s, [, v]) => s + v, 0) - a.points.reduce((s, [, v]) => s + v, 0),
    )[0];
    const item = legendItem(page, 'Hourly cost per namespace', top?.namespace ?? '');
    await expect
      .poll(() => item.textContent())
      .toContain(`latest ${formatValue('USD/h', latest(top?.points ?? []))}`);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // A namespace opens its workloads and its own trend; the URL keeps it (the shell's namespace).
    await table.getByRole('button', { name: 'demo-shop', exact: true }).click();
    await page.waitForURL(/namespace=demo-shop/);
    const workloads = await answer<Workloads>('/api/cost/workloads', {
      namespace: 'demo-shop',
      window: '24h',
    });
    const list = page.getByRole('table', { name: 'Workloads in demo-shop' });
    await expect.poll(() => dataRows(list).count()).toBe(workloads.workloads.length);
    const storefront = workloads.workloads.find((w) => w.name === 'storefront');
    expect(storefront, 'storefront among the workloads of demo-shop').toBeDefined();
    const row = dataRows(list).filter({ has: page.getByRole('link', { name: 'demo-shop/storefront' }) });
    expect(await cellTexts(row)).toEqual([
      'demo-shop/storefront',
      'Deployment',
      String(storefront?.pods),
      formatMoney(storefront?.hourlyCost ?? -1),
      formatMoney(storefront?.cpuCost ?? -1),
      formatMoney(storefront?.memoryCost ?? -1),
      percent(storefront?.efficiency ?? null),
      month(storefront?.hourlyCost ?? -1),
    ]);
    await answer<Trend>('/api/cost/trend', { window: '24h', namespace: 'demo-shop' });
    await page.getByRole('list', { name: 'Hourly cost of demo-shop legend' }).waitFor();

    // Another window asks the agent again and shows its answer.
    await page.getByRole('radiogroup', { name: 'Window' }).getByText('7d', { exact: true }).click();
    await page.waitForURL(/window=168h/);
    const week = await answer<Summary>('/api/cost/summary', { window: '168h' });
    await tile('Per hour')
      .filter({ hasText: `${formatMoney(week.windowCost)} in 7d` })
      .waitFor();
    await answer<Workloads>('/api/cost/workloads', { namespace: 'demo-shop', window: '168h' });
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The nodes: price, instance type and region per node.
    await page.getByRole('tab', { name: 'Nodes' }).click();
    const nodes = await answer<Nodes>('/api/cost/nodes', { window: '168h' });
    const nodeTable = page.getByRole('table', { name: 'Nodes' });
    await expect.poll(() => dataRows(nodeTable).count()).toBe(nodes.nodes.length);
    for (const node of nodes.nodes) {
      const cells = await cellTexts(dataRows(nodeTable).filter({ hasText: node.name }));
      expect([cells[0], cells[1], cells[2], cells[7]]).toEqual([
        node.name,
        node.instanceType ?? 'unknown',
        node.region ?? 'unknown',
        formatMoney(node.hourlyCost),
      ]);
    }
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('draws the six hours the store holds, in the light and the dark theme', async () => {
    for (const [scheme, image] of [
      ['light', 'cost'],
      ['dark', 'cost-dark'],
    ] as const) {
      const { page, answer } = await open(agent, '/cost?window=6h', scheme);
      const trend = await answer<Trend>('/api/cost/trend', { window: '6h' });
      expect(trend.series.length).toBeGreaterThan(1);
      await page.getByRole('table', { name: 'Namespaces' }).waitFor();
      await page.getByRole('list', { name: 'Hourly cost per namespace legend' }).waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await docsScreenshot(page, image);
    }
  });

  it("lists the workloads to rightsize: the over-provisioned storefront with its containers' recommendation", async () => {
    const { page, answer } = await open(agent, '/cost?tab=rightsizing&namespace=demo-shop&window=6h');
    const scan = await answer<{ workloads: Recommendation[] }>('/api/metricsdb/rightsizing/scan');
    const table = page.getByRole('table', { name: 'Workloads to rightsize' });
    await expect
      .poll(() => table.getByRole('button', { name: /^Details: recommendations for / }).count())
      .toBe(scan.workloads.length);
    const storefront = scan.workloads.find((w) => w.kind === 'Deployment' && w.name === 'storefront');
    expect(storefront?.containers.length).toBeGreaterThan(0);
    await page
      .getByRole('button', { name: 'Details: recommendations for Deployment demo-shop/storefront' })
      .click();
    await expectRecommendations(
      page.getByRole('table', { name: 'Recommendations for Deployment demo-shop/storefront' }),
      storefront as Recommendation,
    );
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'rightsizing');
  });
});

/** Each container's CPU and memory rows: request now, the recommended one, and the verdict, as the agent said. */
async function expectRecommendations(table: Locator, answer: Recommendation) {
  for (const c of answer.containers) {
    expect([c.cpu, c.memory]).toEqual(['over-provisioned', 'over-provisioned']);
    const rows = dataRows(table).filter({ has: table.page().getByRole('rowheader', { name: c.container }) });
    const cpu = await cellTexts(rows.first());
    expect([cpu[0], cpu[2], cpu[3], cpu[6]]).toEqual([
      'CPU',
      formatCores(c.current.cpuRequestCores ?? -1),
      formatCores(c.recommended.cpuRequestCores ?? -1),
      'over-provisioned',
    ]);
    const memory = await cellTexts(rows.first().locator('xpath=following-sibling::tr[1]'));
    expect([memory[0], memory[2], memory[3], memory[6]]).toEqual([
      'Memory',
      formatBytes(c.current.memoryRequestBytes ?? -1),
      formatBytes(c.recommended.memoryRequestBytes ?? -1),
      'over-provisioned',
    ]);
  }
}

describe('metrics on object pages', () => {
  /** The legend of a chart against the chart's answer: usage (or its pods' total), requests and limits. */
  async function expectLegend(page: Page, chart: string, unit: Unit, body: Chart) {
    for (const [name, label] of [
      ['requests', 'Requests'],
      ['limits', 'Limits'],
      ['allocatable', 'Allocatable'],
      ['capacity', 'Capacity'],
    ] as const) {
      const series = body.series.find((s) => s.name === name);
      if (!series) continue;
      await expect
        .poll(() => legendItem(page, chart, label).textContent())
        .toContain(`latest ${formatValue(unit, latest(series.points))}`);
    }
    const usage = body.series.filter((s) => s.name === 'usage');
    expect(usage.length).toBeGreaterThan(0);
    const label = usage.length === 1 ? 'Usage' : `Usage, all ${usage.length} pods`;
    await legendItem(page, chart, label).waitFor();
  }

  it('charts a Deployment’s CPU and memory against its requests and limits, over the range picked', async () => {
    const { page, answer } = await open(agent, '/resources/Deployment/demo-shop/storefront');
    const card = page.getByRole('region', { name: 'Metrics', exact: true });
    await card.waitFor();
    const cpu = await answer<Chart>('/api/metricsdb/resources/Deployment/demo-shop/storefront', {
      category: 'cpu',
      range: '1h',
    });
    await expectLegend(page, 'CPU of Deployment storefront', 'cores', cpu);
    const memory = await answer<Chart>('/api/metricsdb/resources/Deployment/demo-shop/storefront', {
      category: 'memory',
      range: '1h',
    });
    await expectLegend(page, 'Memory (working set) of Deployment storefront', 'bytes', memory);

    // The range picker asks again for 6 hours.
    const asked = page.waitForRequest((r) => /category=cpu/.test(r.url()) && /range=6h/.test(r.url()));
    await card.getByRole('radiogroup', { name: 'Time range' }).getByText('6h', { exact: true }).click();
    await asked;
    const six = await answer<Chart>('/api/metricsdb/resources/Deployment/demo-shop/storefront', {
      category: 'cpu',
      range: '6h',
    });
    expect(six.range).toBe('6h');
    await expectLegend(page, 'CPU of Deployment storefront', 'cores', six);

    // The keyboard reads the values at a moment; the pointer shows them beside the cursor.
    const slider = card.getByRole('slider', { name: 'CPU of Deployment storefront, moment to read' });
    await slider.focus();
    await page.keyboard.press('End');
    expect(await slider.getAttribute('aria-valuetext')).toMatch(
      /^[A-Z][a-z]{2} \d+, \d\d:\d\d: Usage.* Requests /,
    );

    // Rightsizing of the same Deployment, as the agent recommends it.
    const recommendation = await answer<Recommendation & { available: true }>(
      '/api/metricsdb/rightsizing/Deployment/demo-shop/storefront',
    );
    await expectRecommendations(
      page.getByRole('table', { name: 'Recommendations for Deployment storefront' }),
      recommendation,
    );
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The picture: the card at the top of the view, no keyboard focus, the pointer reading a moment.
    await slider.blur();
    await page.getByRole('main').evaluate((main) => {
      const metrics = main.querySelector('section[aria-label="Metrics"]');
      main.scrollBy(0, (metrics?.getBoundingClientRect().top ?? 0) - 80);
    });
    const box = await slider.boundingBox();
    if (box) await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2);
    await card.getByRole('list', { name: 'Values at this moment' }).first().waitFor();
    await docsScreenshot(page, 'metrics-chart');
  });

  it("charts a node's CPU against its capacity and allocatable", async () => {
    const node = metrics.inventory.nodes[0]?.name ?? '';
    const { page, answer } = await open(agent, `/resources/Node/_/${node}`);
    const cpu = await answer<Chart>(`/api/metricsdb/resources/Node/${node}`, { category: 'cpu' });
    expect(cpu.series.map((s) => s.name)).toEqual(expect.arrayContaining(['capacity', 'allocatable']));
    await expectLegend(page, `CPU of Node ${node}`, 'cores', cpu);
    expect(await page.getByRole('region', { name: 'Rightsizing' }).count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});

describe('without a metrics store', () => {
  it('explains how to connect one on the cost page and the object pages, without an error', async () => {
    const unlock = await cluster.lock(metricsStoreServiceLock);
    try {
      const { page } = await open(bare, '/cost');
      const empty = page.getByRole('region', { name: 'No metrics store to read from' });
      await empty.waitFor();
      expect(await empty.textContent()).toContain('--metricsdb-url');
      expect(await page.getByRole('alert').count()).toBe(0);
      expect(await seriousA11yViolations(page)).toEqual([]);

      await page.goto(`${bare.url}/resources/Deployment/demo-shop/storefront`);
      // The card draws what metrics-server has instead, and keeps why there is no store one click away.
      const card = page.getByRole('region', { name: 'Metrics', exact: true });
      await card.getByText('from metrics-server').waitFor();
      await card.getByText('Longer history and rightsizing need a metrics store').click();
      await card.getByRole('region', { name: 'No metrics store to read from' }).waitFor();
      await page
        .getByRole('region', { name: 'Rightsizing' })
        .getByText(/^No recommendations: no metrics store configured/)
        .waitFor();
      expect(await page.getByRole('alert').count()).toBe(0);
      expect(await seriousA11yViolations(page)).toEqual([]);
    } finally {
      await unlock();
    }
  });
});
