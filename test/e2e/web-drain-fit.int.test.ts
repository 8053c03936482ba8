import { mergePatch, nodePool } from '@binnacle/agent/testing';
import {
  clusterNodesLock,
  docsScreenshot,
  openPage,
  seriousA11yViolations,
  testCluster,
} from '@binnacle/testkit';
import { AppsV1Api, PolicyV1Api } from '@kubernetes/client-node';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentInBrowser } from './browser-suite.ts';

// The drain and cordon dialogs show the drain fit (ADR 0123) before anything is asked of the cluster: on a node of
// this file's own, two `web` pods fit on the other node of the pool and `batch` (5 CPUs) fits nowhere.
const cluster = testCluster();
const policy = cluster.kubeConfig('admin').makeApiClient(PolicyV1Api);
const apps = cluster.kubeConfig('admin').makeApiClient(AppsV1Api);
const web = agentInBrowser('drainfit');
const pool = nodePool('webfit');
const [source, spare] = [pool.name('source'), pool.name('spare')];
let unlockNodes: (() => Promise<void>) | undefined;

beforeAll(async () => {
  unlockNodes = await cluster.lock(clusterNodesLock);
  // The spare node joins once the pods run on the source: a node created cordoned and uncordoned later may keep
  // the unschedulable taint the node lifecycle controller added from a stale view.
  await pool.addNode(source, '8');
  await pool.deploy(web.ns.name, 'web', 2, '1');
  await pool.deploy(web.ns.name, 'batch', 1, '5');
  await pool.runningOn(web.ns.name, 'web', 2, source);
  await pool.runningOn(web.ns.name, 'batch', 1, source);
  await policy.createNamespacedPodDisruptionBudget({
    namespace: web.ns.name,
    body: { metadata: { name: 'web' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } },
  });
  await pool.addNode(spare, '4');
});

afterAll(async () => {
  await pool.remove();
  await unlockNodes?.();
});

/** Every request the page makes to change the node, as it makes them. */
function nodeChanges(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (/\/api\/nodes\/[^/]+\/(drain|cordon)$/.test(new URL(request.url()).pathname))
      seen.push(request.url());
  });
  return seen;
}

describe('the drain fit in the node dialogs', () => {
  it('shows which pods would move where, which would stay Pending and why, the budget and the plan, before the drain', async () => {
    const page = await openPage(web.browser, `${web.agent.url}/resources/nodes/_/${source}`);
    const changes = nodeChanges(page);
    await page.getByRole('button', { name: 'Drain' }).click();
    const dialog = page.getByRole('dialog', { name: `Drain Node ${source}?` });
    const fit = dialog.getByRole('region', { name: 'Drain fit' });
    // The agent's cache catches up with the budget's status a moment after it is made.
    await fit.getByText(`PodDisruptionBudget ${web.ns.name}/web`).waitFor({ timeout: 30_000 });
    await fit
      .getByText(`draining node ${source} does not fit: 2 placed elsewhere, 1 would stay Pending`)
      .waitFor();
    const pods = fit.getByRole('list', { name: 'Pods of the drain' });
    expect(await pods.getByRole('listitem').filter({ hasText: 'moves to' }).allTextContents()).toEqual([
      expect.stringContaining(spare),
      expect.stringContaining(spare),
    ]);
    const pending = await pods.getByRole('listitem').filter({ hasText: 'would stay Pending' }).textContent();
    expect(pending).toMatch(/batch-.*0\/\d+ nodes are available: .*1 Insufficient cpu/);
    expect(await fit.getByText('No order of drains keeps every pod running').count()).toBe(1);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'drain-fit');

    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Cordon' }).click();
    const cordon = page.getByRole('dialog', { name: `Cordon Node ${source}?` });
    await cordon.getByText('Cordoning moves no pod').waitFor();
    await cordon.getByRole('region', { name: 'Drain fit' }).getByText('1 would stay Pending').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await cordon.getByRole('button', { name: 'Cancel' }).click();

    // Without the pod that fits nowhere, the drain fits: the plan lets the budget's pods go one at a time. The
    // dialog stays open meanwhile and asks again by itself (every 5 s).
    await page.getByRole('button', { name: 'Drain' }).click();
    await fit.getByText('1 would stay Pending').waitFor();
    await apps.patchNamespacedDeploymentScale(
      { namespace: web.ns.name, name: 'batch', body: { spec: { replicas: 0 } } },
      mergePatch,
    );
    await pool.runningOn(web.ns.name, 'batch', 0, source);
    const plan = dialog.getByRole('list', { name: 'Drain plan' });
    await plan.waitFor({ timeout: 30_000 });
    expect(await plan.textContent()).toBe(
      `drain ${source} (2 evictions; one at a time as ${web.ns.name}/web allows)`,
    );
    await dialog.getByText(`draining node ${source} fits: 2 placed elsewhere`).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(changes).toEqual([]);
    await page.context().close();
  });
});
