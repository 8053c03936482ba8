import { crashLoopingPod } from '@binnacle/agent/testing';
import {
  deploymentBody,
  docsScreenshot,
  openPage,
  seriousA11yViolations,
  testCluster,
} from '@binnacle/testkit';
import { AppsV1Api, CoreV1Api } from '@kubernetes/client-node';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { agentInBrowser } from './browser-suite.ts';

// The pod, node, metrics and deleted-object pages in Chromium, against one agent that polls metrics-server often
// (no metrics store exists here, so the pages fall back to it).
const cluster = testCluster();
const core = cluster.kubeConfig('admin').makeApiClient(CoreV1Api);
const apps = cluster.kubeConfig('admin').makeApiClient(AppsV1Api);
const web = agentInBrowser('podnode', { config: { metricsPollMs: 2000 } });

beforeAll(async () => {
  await crashLoopingPod(web.ns.name, 'crasher');
});

const open = (path: string) => openPage(web.browser, `${web.agent.url}${path}`);

/** Every request the page makes to a path matching `pattern`, as it makes them. */
function requestsTo(page: Page, pattern: RegExp): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (pattern.test(new URL(request.url()).pathname)) seen.push(request.postData() ?? '');
  });
  return seen;
}

describe('the pod, node and metrics pages', () => {
  it('refuses blank, negative, fractional and non-numeric replicas in the scale dialog without asking the API', async () => {
    await apps.createNamespacedDeployment({ namespace: web.ns.name, body: deploymentBody('web') });
    const page = await open(`/resources/deployments/${web.ns.name}/web`);
    const scales = requestsTo(page, /\/scale$/);
    await page.getByRole('button', { name: 'Scale' }).click();
    const dialog = page.getByRole('dialog', { name: 'Scale Deployment web?' });
    const field = dialog.getByLabel('Replicas');
    const confirm = dialog.getByRole('button', { name: 'Scale' });
    for (const [typed, problem] of [
      ['', 'Enter a number.'],
      ['-1', 'At least 0.'],
      ['3.5', 'Enter a whole number.'],
      ['abc', '"abc" is not a number.'],
      ['10001', 'At most 10000.'],
    ]) {
      await field.fill(typed ?? '');
      await dialog
        .getByRole('alert')
        .filter({ hasText: problem ?? '' })
        .waitFor();
      expect(await confirm.isDisabled(), typed).toBe(true);
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      // Enter in the field submits nothing either.
      await field.press('Enter');
    }
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(scales).toEqual([]);
    await field.fill('2');
    expect(await dialog.getByRole('alert').count()).toBe(0);
    await confirm.click();
    await page.getByRole('status').filter({ hasText: 'See it on the timeline' }).waitFor();
    expect(scales.map((body) => JSON.parse(body))).toEqual([{ replicas: 2 }]);
    expect(
      (await apps.readNamespacedDeployment({ namespace: web.ns.name, name: 'web' })).spec?.replicas,
    ).toBe(2);
    await page.context().close();
  });

  it("says why a crash-looping pod fails and shows its previous run's log", async () => {
    const page = await open(`/resources/pods/${web.ns.name}/crasher`);
    const status = page.getByRole('region', { name: 'Status', exact: true });
    await status.getByText('CrashLoopBackOff', { exact: true }).first().waitFor();
    const why = status.getByRole('list', { name: 'Why it fails' });
    expect(await why.textContent()).toMatch(
      /Container main is CrashLoopBackOff.*back-off 40s restarting failed container=main.*Last run ended: Error, exit code 1.*Restarted 4 times/,
    );
    const containers = page.getByRole('region', { name: 'Containers' });
    const main = containers.getByRole('region', { name: 'Container main' });
    expect(await main.textContent()).toMatch(/Waiting: CrashLoopBackOff.*not ready · 4 restarts/);
    expect(await main.textContent()).toContain('ghcr.io/acme/worker:1.0');
    // The node it runs on links to the node's page.
    const node =
      (await core.readNamespacedPod({ namespace: web.ns.name, name: 'crasher' })).spec?.nodeName ?? '';
    expect(await status.getByRole('link', { name: node }).count()).toBe(1);

    const logs = page.getByRole('region', { name: 'Logs', exact: true });
    await logs.getByLabel('Previous run').check();
    const lines = logs.getByLabel('Log lines');
    await lines.getByText('connection refused: database not ready').waitFor();
    await lines.getByText('exiting after 3 failed attempts').waitFor();
    await logs.getByRole('status').filter({ hasText: 'Previous run of main' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await status.evaluate((card) => card.scrollIntoView());
    await docsScreenshot(page, 'pod-crashloop');

    // A container that never restarted has no previous run: the card says so, and asks the agent nothing.
    const previousReads = requestsTo(page, /\/logs$/);
    await page.goto(`${web.agent.url}/resources/pods/demo-data/postgres-0`);
    await logs.getByLabel('Previous run').check();
    await logs
      .getByRole('status')
      .filter({ hasText: 'has not restarted: there is no previous run' })
      .waitFor();
    expect(previousReads).toEqual([]);
    await page.context().close();
  });

  it("shows a node's capacity against requests and metrics-server's use, its pods, and refuses a bad drain grace period", async () => {
    const node =
      (await core.readNamespacedPod({ namespace: web.ns.name, name: 'crasher' })).spec?.nodeName ?? '';
    const page = await open(`/resources/nodes/_/${node}`);
    const drains = requestsTo(page, /\/drain$/);
    const capacity = page.getByRole('table', { name: 'Capacity' });
    for (const resource of ['cpu', 'memory', 'pods', 'ephemeral-storage'])
      await capacity.getByRole('rowheader', { name: resource }).waitFor();
    // metrics-server's figure for the node fills the Used column of cpu.
    await capacity
      .getByRole('row', { name: /^cpu/ })
      .getByRole('cell')
      .last()
      .filter({ hasText: /\d/ })
      .waitFor({ timeout: 60_000 });
    const pods = page.getByRole('table', { name: 'Pods on this node' });
    await pods.getByRole('link', { name: `${web.ns.name}/crasher` }).waitFor();
    expect(
      await pods.getByRole('row', { name: new RegExp(`${web.ns.name}/crasher`) }).textContent(),
    ).toContain('CrashLoopBackOff');
    // The Metrics card falls back to metrics-server: the node's use now and the agent's kept polls.
    const metrics = page.getByRole('region', { name: 'Metrics', exact: true });
    await metrics.getByText('from metrics-server').waitFor();
    await metrics.getByRole('definition').first().filter({ hasText: /\d/ }).waitFor({ timeout: 60_000 });
    await metrics.getByRole('figure', { name: `CPU of Node ${node}` }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('region', { name: 'Node status' }).evaluate((card) => card.scrollIntoView());
    await docsScreenshot(page, 'node');

    await page.getByRole('button', { name: 'Drain' }).click();
    const dialog = page.getByRole('dialog', { name: `Drain Node ${node}?` });
    await dialog.getByLabel('Grace period (seconds)').fill('1.5');
    await dialog.getByRole('alert').filter({ hasText: 'Enter a whole number.' }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Drain' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Grace period (seconds)').fill('');
    await dialog.getByLabel('Give up after').fill('20m');
    await dialog.getByRole('alert').filter({ hasText: 'At most 15m.' }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Drain' }).isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(drains).toEqual([]);
    await page.context().close();
  });

  it("draws a workload's use from metrics-server when there is no metrics store", async () => {
    const page = await open('/resources/deployments/demo-shop/checkout');
    const metrics = page.getByRole('region', { name: 'Metrics', exact: true });
    await metrics.getByText('from metrics-server').waitFor();
    // checkout's two pods use about 260m each (kwok's usage annotation in the seed).
    const cpuNow = metrics.getByRole('definition').first();
    await cpuNow.filter({ hasText: /\d/ }).waitFor({ timeout: 60_000 });
    expect(await cpuNow.textContent()).toMatch(/^(4\d\d|5\d\d|6[0-3]\d)m$/);
    await metrics.getByRole('figure', { name: 'Memory (working set) of Deployment checkout' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('keeps showing a deleted object as it last was, saying when it was deleted and linking the change', async () => {
    await core.createNamespacedConfigMap({
      namespace: web.ns.name,
      body: { metadata: { name: 'doomed' }, data: { mode: 'calm' } },
    });
    const page = await open(`/resources/configmaps/${web.ns.name}/doomed`);
    const yaml = page.getByRole('region', { name: 'YAML' });
    await yaml.getByRole('button', { name: 'Edit' }).waitFor();
    await core.deleteNamespacedConfigMap({ namespace: web.ns.name, name: 'doomed' });
    const notice = page
      .getByRole('status')
      .filter({ hasText: `ConfigMap ${web.ns.name}/doomed was deleted` });
    await notice.waitFor({ timeout: 30_000 });
    await notice.getByRole('link', { name: 'See the deletion on the timeline' }).waitFor();
    expect(await yaml.getByLabel('Object YAML').textContent()).toContain('name: doomed');
    expect(await yaml.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await notice.getByRole('link', { name: 'See the deletion on the timeline' }).click();
    await page.waitForURL(/\/timeline\?/);
    await page
      .getByRole('list', { name: 'Changes' })
      .getByRole('button')
      .filter({ hasText: 'delete' })
      .filter({ hasText: 'doomed' })
      .first()
      .waitFor();
    await page.context().close();
  });
});
