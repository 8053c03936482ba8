import { randomBytes } from 'node:crypto';
import {
  deploymentBody,
  docsScreenshot,
  structuredLogsNamespace as namespace,
  openPage,
  seriousA11yViolations,
  testCluster,
  waitUntil,
} from '@binnacle/testkit';
import { AppsV1Api, CoreV1Api } from '@kubernetes/client-node';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentInBrowser } from './browser-suite.ts';
import { seeNewLogLine, typeEcho } from './ui-steps.ts';

// Structured logs across a workload's pods, and the dock that keeps logs and shells open across pages
// (docs/streams.md), in Chromium against the real control plane. The simulated containers of the structured-logs
// namespace serve a log of their own: the lines written here show in each pod of the Deployment there, among
// pod-sim's logfmt lines, and in no other test's pods.
const cluster = testCluster();
const core = cluster.kubeConfig('admin').makeApiClient(CoreV1Api);
const apps = cluster.kubeConfig('admin').makeApiClient(AppsV1Api);
const web = agentInBrowser('logsdock');
/** Marks this run's lines: an earlier run's are still in the shared log's tail. */
const run = randomBytes(3).toString('hex');
let pods: string[] = [];

const at = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000).toISOString();

beforeAll(async () => {
  // The namespace of an earlier run may still be going away.
  await waitUntil(
    `namespace ${namespace} created`,
    () =>
      core.createNamespace({ body: { metadata: { name: namespace } } }).then(
        () => true,
        (error: { code?: number }) => error.code !== 409 && Promise.reject(error),
      ),
    { timeoutMs: 90_000, intervalMs: 1000 },
  );
  await apps.createNamespacedDeployment({ namespace: namespace, body: deploymentBody('billing', 2) });
  await waitUntil(
    'two running billing pods',
    async () => {
      const { items } = await core.listNamespacedPod({ namespace: namespace });
      pods = items.filter((p) => p.status?.phase === 'Running').map((p) => p.metadata?.name ?? '');
      return pods.length === 2;
    },
    { timeoutMs: 60_000 },
  );
  await cluster.writeStructuredLog([
    JSON.stringify({
      time: at(9),
      level: 'info',
      msg: 'payment accepted',
      service: 'billing',
      order: `${run}-1`,
      ms: 41,
    }),
    JSON.stringify({
      time: at(8),
      level: 50,
      msg: 'card declined by issuer',
      service: 'billing',
      order: `${run}-2`,
      ms: 212,
    }),
    `ts=${at(7)} level=warning msg="retrying ledger write" service=ledger order=${run}-3 attempt=2`,
    JSON.stringify({
      time: at(6),
      severity: 'DEBUG',
      msg: 'fraud score computed',
      service: 'risk',
      order: `${run}-3`,
      score: 0.12,
    }),
    `ts=${at(5)} lvl=ERR msg="ledger write failed: deadline exceeded" service=ledger order=${run}-3 attempt=3`,
    'plain text: connection pool warmed up',
    JSON.stringify({
      time: at(4),
      log: { level: 'info' },
      msg: 'invoice sent',
      service: 'billing',
      order: `${run}-1`,
    }),
  ]);
});

afterAll(async () => {
  await core.deleteNamespace({ name: namespace }).catch(() => undefined);
});

const open = (path: string) => openPage(web.browser, `${web.agent.url}${path}`);

/** The structured table's rows of this run's lines, as [pod, level, message]. */
async function runRows(page: Page): Promise<string[][]> {
  const table = page
    .getByRole('region', { name: 'Logs', exact: true })
    .getByRole('table', { name: 'Structured log' });
  const rows = await table.getByRole('row').filter({ hasText: run }).all();
  return Promise.all(rows.map(async (row) => (await row.getByRole('cell').allTextContents()).slice(1, 4)));
}

describe('structured logs and the dock', () => {
  it("shows a workload's JSON and logfmt lines as columns and filters them by level across its pods", async () => {
    const page = await open(`/resources/deployments/${namespace}/billing`);
    const logs = page.getByRole('region', { name: 'Logs', exact: true });
    const table = logs.getByRole('table', { name: 'Structured log' });
    // Detected on its own: pod-sim's logfmt and the JSON written here.
    await table.getByRole('cell', { name: 'card declined by issuer' }).first().waitFor();
    const structuredView = logs.getByRole('checkbox', { name: /^Structured \(/ });
    expect(await structuredView.isChecked()).toBe(true);
    const columns = logs.getByText(/^Columns \(/);
    await columns.click();
    await logs.getByRole('checkbox', { name: /^service/ }).check();
    await logs.getByRole('checkbox', { name: /^order/ }).check();
    await columns.click();
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(
      expect.arrayContaining(['Time', 'Pod', 'Level', 'Message', 'seq', 'service', 'order']),
    );
    // Both pods show every line; a line that is not structured stays, as text.
    await expect.poll(async () => (await runRows(page)).length, { timeout: 15_000 }).toBe(12);
    await table.getByRole('cell', { name: 'plain text: connection pool warmed up' }).first().waitFor();
    const declined = table.getByRole('row').filter({ hasText: 'card declined by issuer' }).first();
    expect(await declined.getByRole('cell').allTextContents()).toEqual(
      expect.arrayContaining(['error', 'billing', `${run}-2`]),
    );
    expect(await seriousA11yViolations(page)).toEqual([]);
    await logs.evaluate((card) => card.scrollIntoView());
    await docsScreenshot(page, 'logs-structured');

    await logs.getByLabel('Filter by field').fill('level=error');
    await expect.poll(async () => (await runRows(page)).length).toBe(4);
    const rows = await runRows(page);
    expect(new Set(rows.map(([pod]) => pod))).toEqual(new Set(pods));
    expect(rows.every(([, level]) => level === 'error')).toBe(true);
    // The message cell ends with the fields that have no column (ms=, attempt=).
    const messages = rows.map(([, , message]) => message?.replace(/(ms|attempt)=\d+$/, ''));
    expect(messages.sort()).toEqual([
      'card declined by issuer',
      'card declined by issuer',
      'ledger write failed: deadline exceeded',
      'ledger write failed: deadline exceeded',
    ]);
    // Every row left is an error, pod-sim's info lines and the plain line included.
    const levels = await table.locator('tbody tr td:nth-child(3)').allTextContents();
    expect(new Set(levels)).toEqual(new Set(['error']));
    // Terms add up; the level buttons choose levels as the filter does.
    await logs.getByLabel('Filter by field').fill('level=error service=ledger');
    await expect.poll(async () => (await runRows(page)).length).toBe(2);
    await logs.getByLabel('Filter by field').fill('level');
    await logs.getByText('“level” has no value: write key=value, e.g. level=error.').waitFor();
    await logs.getByLabel('Filter by field').fill('');
    await logs.getByRole('button', { name: /^warn/ }).click();
    await expect.poll(async () => (await runRows(page)).map(([, level]) => level)).toEqual(['warn', 'warn']);
    expect(await seriousA11yViolations(page)).toEqual([]);
    // The plain view is one click away.
    await structuredView.uncheck();
    expect(await table.count()).toBe(0);
    await page.context().close();
  });

  it('keeps a log stream and a shell open in the dock across three page changes', async () => {
    const pod = pods[0] ?? '';
    const page = await open(`/resources/pods/${namespace}/${pod}`);
    await page
      .getByRole('region', { name: 'Logs', exact: true })
      .getByRole('button', { name: 'Open in dock' })
      .click();
    await page
      .getByRole('region', { name: 'Terminal' })
      .getByRole('button', { name: 'Open in dock' })
      .click();
    const dock = page.getByRole('region', { name: 'Dock' });
    const tabs = dock.getByRole('list', { name: 'Dock tabs' });
    expect(await tabs.getByRole('listitem').allTextContents()).toEqual([
      `≡Logs: ${pod}✕`,
      `>_Shell: ${pod}✕`,
    ]);
    await typeEcho(page, `Shell: ${pod}`, 'before-moving');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // From here on no stream may open again: the dock's keep running.
    const reopened: string[] = [];
    page.on('request', (request) => {
      if (/\/logs\/stream$/.test(new URL(request.url()).pathname)) reopened.push(request.url());
    });
    page.on('websocket', (socket) => reopened.push(socket.url()));
    const areas = page.getByRole('navigation', { name: 'Areas' });
    for (const [link, path] of [
      ['Topology', '/topology'],
      ['Timeline', '/timeline'],
      ['Sessions', '/sessions'],
    ] as const) {
      await areas.getByRole('link', { name: link, exact: true }).click();
      await page.waitForURL((url) => url.pathname === path);
      expect(await seriousA11yViolations(page)).toEqual([]);
    }

    await tabs.getByRole('button', { name: `Shell: ${pod}`, exact: true }).click();
    await typeEcho(page, `Shell: ${pod}`, 'after-three-pages');
    await tabs.getByRole('button', { name: `Logs: ${pod}`, exact: true }).click();
    const logTab = dock.getByRole('region', { name: `Logs: ${pod}` });
    await seeNewLogLine(page, logTab);
    expect(reopened).toEqual([]);

    // Minimised, the tabs stay; restored, the log has gone on.
    await dock.getByRole('button', { name: 'Minimise' }).click();
    expect(await logTab.isHidden()).toBe(true);
    await dock.getByRole('button', { name: 'Restore' }).click();
    await seeNewLogLine(page, logTab);
    // The top edge resizes it from the keyboard.
    const edge = dock.getByRole('separator', { name: 'Resize the dock' });
    const height = Number(await edge.getAttribute('aria-valuenow'));
    await edge.focus();
    await page.keyboard.press('ArrowUp');
    expect(Number(await edge.getAttribute('aria-valuenow'))).toBe(height + 40);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'dock');

    // Closing a tab ends it; the last one closed takes the dock away.
    await dock.getByRole('button', { name: `Close Shell: ${pod}` }).click();
    expect(await tabs.getByRole('listitem').count()).toBe(1);
    await dock.getByRole('button', { name: `Close Logs: ${pod}` }).click();
    await dock.waitFor({ state: 'detached' });
    expect(reopened).toEqual([]);
    await page.context().close();
  }, 180_000);
});
