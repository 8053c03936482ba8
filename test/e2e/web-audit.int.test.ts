import { certFactory, tlsSecret } from '@binnacle/agent/testing';
import {
  docsScreenshot,
  openPage,
  seeded,
  seriousA11yViolations,
  testCluster,
  waitUntil,
} from '@binnacle/testkit';
import { CoreV1Api, type V1Secret } from '@kubernetes/client-node';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentInBrowser } from './browser-suite.ts';

// The seeded demo namespaces are only read here; the certificates page also gets this file's own TLS Secrets.
const cluster = testCluster();
const core = cluster.kubeConfig('admin').makeApiClient(CoreV1Api);
const web = agentInBrowser('web-certs');
const certs = certFactory();
const payments = { name: 'payments-tls', host: 'payments.demo.binnacle.local', days: 5 };

interface Finding {
  kind: string;
  namespace?: string;
  name: string;
  checkId: string;
  severity: string;
}
type Counts = { passing: number; warning: number; danger: number };
interface AuditReport {
  summary: Counts & { categories: Record<'Security' | 'Reliability' | 'Efficiency', Counts> };
  findings: Finding[];
  groups: (Finding & { findings: Finding[] })[];
  checks: Record<string, { title: string; remediation: string; frameworks: string[] }>;
}
interface CertReport {
  items: { namespace: string; name: string; severity: string; problems: string[] }[];
}
interface Matrix {
  pods: string[];
  cells: { allowed: boolean }[][];
}

beforeAll(async () => {
  // A leaf for payments issued by its own CA, then the CA: a chain in order and complete, as an ingress
  // controller is usually given; and a Secret whose PEM block is not a certificate.
  const ca = certs.make({ cn: 'Binnacle Demo CA', ca: true, valid: [-1, 365] });
  const hosts = [payments.host, `www.${payments.host}`];
  const leaf = certs.make({
    cn: payments.host,
    sans: hosts.map((h) => `DNS:${h}`),
    issuer: ca,
    valid: [-1, payments.days],
  });
  const notACertificate = '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n';
  for (const body of [
    tlsSecret(payments.name, { crt: leaf.cert + ca.cert, key: leaf.key }, web.ns.name),
    tlsSecret('broken-tls', { crt: notACertificate, key: 'not a key' }, web.ns.name),
  ])
    await core.createNamespacedSecret({ namespace: web.ns.name, body: body as V1Secret });
});
afterAll(() => certs.dispose());

const open = (path: string, colorScheme?: 'light' | 'dark') =>
  openPage(web.browser, `${web.agent.url}${path}`, colorScheme);

/** From the dashboard of a namespace, through the sidebar: the page keeps the namespace picked in the shell. */
async function viaSidebar(link: string, heading: string, namespace: string): Promise<Page> {
  const page = await open('/');
  await page.getByRole('banner').getByLabel('Namespace').selectOption(namespace);
  await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: link }).click();
  await page.getByRole('heading', { name: heading, exact: true, level: 1 }).waitFor();
  expect(new URL(page.url()).searchParams.get('namespace')).toBe(namespace);
  return page;
}

const cellTexts = async (row: Locator) =>
  (await row.getByRole('cell').allTextContents()).map((t) => t.trim());
const dataRows = (table: Locator) => table.locator(':scope > tbody > tr');

describe('the audit page', () => {
  it('counts findings per category and lists the objects most dangerous first, each with how to fix it', async () => {
    const report = await web.agent.json<AuditReport>('/api/audit?namespace=demo-shop');
    const page = await viaSidebar('Audit', 'Audit', 'demo-shop');
    const summary = page.getByRole('region', { name: 'Summary' });
    for (const category of ['Security', 'Reliability', 'Efficiency'] as const) {
      const { danger, warning, passing } = report.summary.categories[category];
      const card = summary.getByRole('button', { name: new RegExp(`^${category}`) });
      expect(await card.textContent()).toContain(`${danger}Danger${warning}Warning${passing}objects pass`);
    }
    const objects = page.getByRole('table', { name: 'Objects with findings' });
    await expect.poll(() => dataRows(objects).count()).toBe(report.groups.length);
    const first = report.groups[0] as AuditReport['groups'][number];
    expect((await cellTexts(dataRows(objects).first()))[1]).toBe(`${first.namespace}/${first.name}`);

    // The checkout Deployment's findings: each check's title, its message and the catalogue's remediation.
    const checkout = report.groups.find((g) => g.kind === 'Deployment' && g.name === 'checkout');
    expect(checkout, 'findings of Deployment demo-shop/checkout').toBeDefined();
    const toggle = page.getByRole('button', { name: 'Details: findings of Deployment demo-shop/checkout' });
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    const detail = objects.locator(`[id="${await toggle.getAttribute('aria-controls')}"]`);
    for (const f of checkout?.findings ?? []) {
      const check = report.checks[f.checkId];
      await detail.getByRole('heading', { name: check?.title, exact: true }).first().waitFor();
      await detail
        .getByText(check?.remediation ?? '', { exact: true })
        .first()
        .waitFor();
    }
    const cited = (checkout?.findings ?? []).flatMap((f) => report.checks[f.checkId]?.frameworks ?? []);
    if (cited.some((c) => c.startsWith('CIS')))
      await detail
        .getByText(/^CIS \d/)
        .first()
        .waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'audit');

    // The object's own page, from its name.
    await dataRows(objects).filter({ has: toggle }).getByRole('link', { name: 'demo-shop/checkout' }).click();
    await page.getByRole('heading', { name: 'Deployment demo-shop/checkout' }).waitFor();
  });

  it('filters by category and severity through the agent, and groups the findings by check', async () => {
    const page = await open('/audit?namespace=demo-shop');
    const objects = page.getByRole('table', { name: 'Objects with findings' });
    await objects.waitFor();
    await page.getByLabel('Category').selectOption('Security');
    await page.getByLabel('Severity').selectOption('warning');
    await page.waitForURL(/category=Security/);
    expect(page.url()).toContain('severity=warning');
    const security = await web.agent.json<AuditReport>(
      '/api/audit?namespace=demo-shop&category=Security&severity=warning',
    );
    await expect.poll(() => dataRows(objects).count()).toBe(security.groups.length);
    expect(
      await page
        .getByRole('region', { name: 'Summary' })
        .getByRole('button', { pressed: true })
        .textContent(),
    ).toMatch(/^Security/);

    await page.getByRole('tab', { name: /^By check/ }).click();
    const byCheck = page.getByRole('table', { name: 'Findings by check' });
    const ids = [...new Set(security.findings.map((f) => f.checkId))];
    await expect.poll(() => dataRows(byCheck).count()).toBe(ids.length);
    for (const id of ids) {
      const row = dataRows(byCheck).filter({ hasText: id });
      const objectsFound = new Set(
        security.findings.filter((f) => f.checkId === id).map((f) => `${f.kind}/${f.namespace}/${f.name}`),
      ).size;
      expect((await cellTexts(row)).slice(2)).toEqual([
        'Security',
        'Warning',
        String(objectsFound),
        expect.any(String),
      ]);
    }
    expect(await seriousA11yViolations(page)).toEqual([]);

    const dark = await open('/audit?view=checks', 'dark');
    const checks = dark.getByRole('table', { name: 'Findings by check' });
    await dataRows(checks).first().waitFor();
    await dataRows(checks).first().getByRole('button').click();
    await checks.getByRole('table').first().waitFor();
    expect(await seriousA11yViolations(dark)).toEqual([]);
    await docsScreenshot(dark, 'audit-dark');
  });
});

describe('the certificates page', () => {
  it('shows every TLS Secret most urgent first with its days left, chain and parse problems', async () => {
    const mine = () => web.agent.json<CertReport>(`/api/secrets/certificate-expiry?namespace=${web.ns.name}`);
    await waitUntil(
      'the agent reading both Secrets of this file',
      async () => (await mine()).items.length === 2,
      {
        timeoutMs: 15_000,
        intervalMs: 250,
      },
    );
    const page = await viaSidebar('Certificates', 'Certificates', web.ns.name);
    const tiles = page.getByRole('region', { name: 'Summary' });
    const tile = async (label: string) =>
      (await tiles.getByRole('button', { name: new RegExp(`^${label}`) }).textContent()) ?? '';
    expect(await tile('Certificates')).toMatch(/^Certificates2/);
    expect(await tile('Critical')).toBe('Critical1within 7 days');
    expect(await tile('Invalid')).toBe('Invalid1unusable data');
    expect(await tile('Warning')).toBe('Warning0within 30 days');
    const table = page.getByRole('table', { name: 'Certificates' });
    const broken = dataRows(table).filter({ hasText: 'broken-tls' });
    const problem = (await mine()).items.find((i) => i.name === 'broken-tls')?.problems[0] ?? '';
    expect(problem).not.toBe('');
    expect((await cellTexts(broken)).slice(1, 2)).toEqual(['invalid']);
    await broken.getByRole('list', { name: 'Problems' }).getByText(problem).waitFor();

    const chain = dataRows(table).filter({ hasText: payments.name });
    const cells = await cellTexts(chain);
    expect(cells[1]).toBe('critical');
    expect(cells[3]).toContain(payments.host);
    expect(cells[4]).toContain('Binnacle Demo CA');
    expect(cells[6]).toMatch(/^[45] days$/);
    await page.getByRole('button', { name: `Details: Secret ${web.ns.name}/${payments.name}` }).click();
    const bundle = table.getByRole('list', { name: 'Certificates in the bundle' });
    expect(await bundle.getByRole('listitem').count()).toBe(2);
    expect(await bundle.getByRole('listitem').first().textContent()).toMatch(/^Leaf/);
    expect(await bundle.getByRole('listitem').nth(1).textContent()).toMatch(/^Root CA/);
    await table.getByText('in order', { exact: true }).waitFor();
    await table.getByText('complete', { exact: true }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('shows the seeded certificates across namespaces: the 10-day one a warning before the 90-day one', async () => {
    const page = await open('/certificates');
    const table = page.getByRole('table', { name: 'Certificates' });
    await dataRows(table).first().waitFor();
    const [legacy, storefront] = seeded.tlsSecrets
      .slice()
      .sort((a, b) => a.days - b.days)
      .map((tls) => dataRows(table).filter({ hasText: `${tls.namespace}/${tls.name}` }));
    const legacyCells = await cellTexts(legacy as Locator);
    expect(legacyCells[1]).toBe('warning');
    expect(legacyCells[3]).toBe('legacy.demo.binnacle.local');
    expect(legacyCells[6]).toMatch(/^(9|10) days$/);
    const storefrontCells = await cellTexts(storefront as Locator);
    expect(storefrontCells[1]).toBe('ok');
    expect(storefrontCells[6]).toMatch(/^(89|90) days$/);
    const names = (await dataRows(table).allTextContents()).map(
      (t) => t.match(/legacy-api-tls|storefront-tls/)?.[0],
    );
    expect(names.indexOf('legacy-api-tls')).toBeLessThan(names.indexOf('storefront-tls'));
    await page.getByRole('button', { name: `Details: Secret ${web.ns.name}/${payments.name}` }).click();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'certificates');

    // The warning tile keeps the warnings; the filter keeps what names the text.
    await page
      .getByRole('region', { name: 'Summary' })
      .getByRole('button', { name: /^Warning/ })
      .click();
    await page.waitForURL(/severity=warning/);
    const severities = await dataRows(table).evaluateAll((rows) =>
      rows
        .filter((r) => r.querySelector('button[aria-expanded]'))
        .map((r) => r.querySelectorAll('td')[1]?.textContent),
    );
    expect(new Set(severities)).toEqual(new Set(['warning']));
    const filter = page.getByLabel('Filter by name, host or issuer');
    await filter.fill('legacy');
    await filter.press('Enter');
    await page.waitForURL(/q=legacy/);
    await expect.poll(() => dataRows(table).count()).toBe(1);

    const dark = await open(`/certificates?namespace=${web.ns.name}`, 'dark');
    await dark.getByRole('button', { name: `Details: Secret ${web.ns.name}/${payments.name}` }).click();
    expect(await seriousA11yViolations(dark)).toEqual([]);
    await docsScreenshot(dark, 'certificates-dark');
  });
});

describe('the network policy tester', () => {
  const podsOf = async (namespace: string, app: string) =>
    (await core.listNamespacedPod({ namespace, labelSelector: `app.kubernetes.io/name=${app}` })).items.map(
      (p) => p.metadata?.name ?? '',
    );

  it('answers allowed for storefront → checkout:8080 and denied for another pod, naming the policy', async () => {
    const [storefront] = await podsOf('demo-shop', 'storefront');
    const [checkout] = await podsOf('demo-shop', 'checkout');
    const page = await viaSidebar('Network policies', 'Network policies', 'demo-shop');
    const form = page.getByRole('form', { name: 'Connection to test' });
    expect(await form.getByLabel('Source namespace').inputValue()).toBe('demo-shop');
    await form.getByLabel('Source pod').fill(storefront ?? '');
    await form.getByLabel('Destination pod').fill(checkout ?? '');
    await form.getByLabel('Port').fill('8080');
    await form.getByLabel('Protocol').selectOption('TCP');
    await form.getByRole('button', { name: 'Evaluate' }).click();
    const verdict = page.getByRole('region', { name: 'Verdict' });
    await verdict.getByRole('heading', { name: 'Allowed', exact: true }).waitFor();
    const ingress = verdict.getByRole('region', { name: 'Ingress to the destination' });
    await ingress.getByRole('link', { name: 'demo-shop/checkout-from-storefront' }).waitFor();
    await ingress.getByText('spec.ingress[0].from[0].ports[0]').waitFor();
    const egress = verdict.getByRole('region', { name: 'Egress from the source' });
    await egress.getByText('not isolated').waitFor();
    expect(new URL(page.url()).searchParams.get('source')).toBe(`pod/demo-shop/${storefront}`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'network-policies');

    // postgres in demo-data to the checkout Service: both pods behind it refuse it at ingress.
    await form.getByLabel('Source namespace').fill('demo-data');
    await form.getByLabel('Source pod').fill('postgres-0');
    await form.getByRole('radiogroup', { name: 'Destination is' }).getByText('Service').click();
    await form.getByLabel('Destination Service').fill('checkout');
    await form.getByLabel('Port').fill('80');
    await form.getByRole('button', { name: 'Evaluate' }).click();
    await verdict.getByRole('heading', { name: 'Denied', exact: true }).waitFor();
    const denied = verdict.getByRole('region', { name: 'Ingress to the destination' });
    await denied.getByRole('heading', { name: 'Denied by' }).waitFor();
    await denied.getByRole('link', { name: 'demo-shop/checkout-from-storefront' }).waitFor();
    const backends = verdict.getByRole('region', { name: 'Pods behind the Service' });
    const checkoutPods = await podsOf('demo-shop', 'checkout');
    expect(await dataRows(backends.getByRole('table')).count()).toBe(checkoutPods.length);
    for (const row of await dataRows(backends.getByRole('table')).all())
      expect((await cellTexts(row)).slice(1, 3)).toEqual(['8080', 'denied']);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('judges a block of outside addresses as a whole: denied where the policy admits only storefront pods', async () => {
    const [checkout] = await podsOf('demo-shop', 'checkout');
    const page = await open(
      `/network-policies?namespace=demo-shop&source=ip/203.0.113.0/24&destination=pod/demo-shop/${checkout}&port=8080`,
    );
    const form = page.getByRole('form', { name: 'Connection to test' });
    expect(await form.getByLabel('Source address').inputValue()).toBe('203.0.113.0/24');
    const verdict = page.getByRole('region', { name: 'Verdict' });
    await verdict.getByRole('heading', { name: 'Denied', exact: true }).waitFor();
    expect(await verdict.textContent()).toContain('demo-shop/checkout-from-storefront');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it("shows the agent's 400 beside the field it names", async () => {
    const page = await open('/network-policies?namespace=demo-shop');
    const form = page.getByRole('form', { name: 'Connection to test' });
    await form.getByRole('radiogroup', { name: 'Source is' }).getByText('Pod with labels').click();
    await form.getByLabel('Source pod labels').fill('storefront');
    await form.getByLabel('Destination pod').fill('anything');
    await form.getByRole('button', { name: 'Evaluate' }).click();
    const labels = form.getByLabel('Source pod labels');
    await form.getByRole('alert').filter({ hasText: 'sourceLabels "storefront"' }).waitFor();
    expect(await labels.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('region', { name: 'Verdict' }).count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it("draws demo-shop's pod-to-pod matrix with a legend; a cell names its policies and opens the pair", async () => {
    const expected = await web.agent.json<Matrix>('/api/network-policies/evaluate?matrix=demo-shop');
    const allowed = expected.cells.flat().filter((c) => c.allowed).length;
    const page = await open('/network-policies?namespace=demo-shop');
    await page.getByRole('tab', { name: 'Namespace matrix' }).click();
    await page.waitForURL(/matrix=demo-shop/);
    const grid = page.getByRole('region', { name: 'Reachability matrix' });
    await grid.waitFor();
    const pods = expected.pods.length;
    await page
      .getByRole('status')
      .filter({ hasText: `${pods} pods · ${allowed} of ${pods ** 2} pairs allowed` })
      .waitFor();
    await page.getByRole('list', { name: 'Legend' }).getByText('allowed', { exact: true }).waitFor();
    const short = (pod: string) => pod.slice(pod.indexOf('/') + 1);
    const storefront = expected.pods.find((p) => p.includes('/storefront-')) ?? '';
    const [checkoutA, checkoutB] = expected.pods.filter((p) => p.includes('/checkout-'));
    const cell = (from: string, to: string) =>
      grid.getByRole('link', { name: new RegExp(`^${short(from)} → ${short(to)}: `) });
    const words = (link: Locator) => link.locator('.sr-only').textContent();
    expect(await words(cell(storefront, checkoutA ?? ''))).toBe(
      `${short(storefront)} → ${short(checkoutA ?? '')}: allowed by demo-shop/checkout-from-storefront`,
    );
    expect(await words(cell(checkoutA ?? '', checkoutB ?? ''))).toBe(
      `${short(checkoutA ?? '')} → ${short(checkoutB ?? '')}: denied at ingress (the destination's policies) by demo-shop/checkout-from-storefront`,
    );
    expect(await grid.getByRole('link').count()).toBe(pods ** 2);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'network-policies-matrix');

    const dark = await open('/network-policies?namespace=demo-shop&matrix=demo-shop&port=8080', 'dark');
    await dark.getByRole('region', { name: 'Reachability matrix' }).waitFor();
    expect(await seriousA11yViolations(dark)).toEqual([]);
    await docsScreenshot(dark, 'network-policies-matrix-dark');

    // A cell opens its pair in the tester.
    await cell(checkoutA ?? '', checkoutB ?? '').click();
    await page
      .getByRole('region', { name: 'Verdict' })
      .getByRole('heading', { name: 'Denied', exact: true })
      .waitFor();
    expect(page.url()).not.toContain('matrix=');
  });
});
