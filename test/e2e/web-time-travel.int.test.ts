import {
  deploymentBody,
  docsScreenshot,
  openPage,
  seriousA11yViolations,
  testCluster,
  waitUntil,
} from '@binnacle/testkit';
import { AppsV1Api } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { agentInBrowser } from './browser-suite.ts';

// The Resources page as the cluster was (docs/time-travel.md), in Chromium against one agent.
const apps = testCluster().kubeConfig('admin').makeApiClient(AppsV1Api);
const web = agentInBrowser('timetravel-web');

const open = (path: string) => openPage(web.browser, `${web.agent.url}${path}`);
const agentHas = async (name: string) =>
  (await web.agent.request(`/api/resources/deployments/${web.ns.name}/${name}`)).status === 200;

describe('time travel in the web UI', () => {
  it('shows a deleted Deployment on the Resources page as of before its deletion, marked, and live again in one click', async () => {
    const namespace = web.ns.name;
    await apps.createNamespacedDeployment({ namespace, body: deploymentBody('retired') });
    await waitUntil('the agent to see the Deployment', () => agentHas('retired'), {
      timeoutMs: 10_000,
      intervalMs: 50,
    });
    const before = new Date().toISOString();
    await apps.deleteNamespacedDeployment({ namespace, name: 'retired' });
    await waitUntil('the agent to see it deleted', async () => !(await agentHas('retired')), {
      timeoutMs: 10_000,
      intervalMs: 50,
    });

    const page = await open(`/resources/deployments?namespace=${namespace}&at=${encodeURIComponent(before)}`);
    const table = page.getByRole('region', { name: 'Deployment objects' });
    await table.getByRole('link', { name: 'retired' }).waitFor();
    const banner = page.getByRole('region', { name: 'Time travel' });
    await banner.getByText(/^As of \d\d:\d\d:\d\d/).waitFor();
    // The past cannot be changed: no row can be ticked for a delete or a restart.
    expect(await table.getByRole('checkbox').count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'time-travel-resources');

    await banner.getByRole('button', { name: 'Back to live' }).click();
    await page.getByText(`No Deployment objects in ${namespace} match.`).waitFor();
    expect(new URL(page.url()).searchParams.has('at')).toBe(false);
    await page.close();
  });

  it('opens the control on a live table and moves back with the slider to a moment the URL keeps', async () => {
    const namespace = web.ns.name;
    await apps.createNamespacedDeployment({ namespace, body: deploymentBody('later') });
    await waitUntil('the agent to see the Deployment', () => agentHas('later'), {
      timeoutMs: 10_000,
      intervalMs: 50,
    });
    const page = await open(`/resources/deployments?namespace=${namespace}`);
    await page.getByRole('link', { name: 'later' }).waitFor();
    await page.getByRole('button', { name: 'History…' }).click();
    const slider = page.getByRole('slider', { name: 'Moment' });
    // Home: the oldest kept moment of Deployments, when the agent first listed them, before "later" existed.
    await slider.focus();
    await slider.press('Home');
    await page.waitForURL(/[?&]at=/);
    await page
      .getByRole('region', { name: 'Time travel' })
      .getByText(/^As of /)
      .waitFor();
    await page.getByText(`No Deployment objects in ${namespace} match.`).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.close();
  });

  it('goes from a timeline entry to its kind as the cluster held it just before the change', async () => {
    const page = await open(`/timeline?namespace=${web.ns.name}`);
    await page
      .getByRole('button', { name: /delete.*Deployment.*retired/ })
      .first()
      .click();
    await page.getByRole('link', { name: 'just before' }).first().click();
    await page.waitForURL(/\/resources\/Deployment\?.*at=/);
    await page
      .getByRole('region', { name: 'Deployment objects' })
      .getByRole('link', { name: 'retired' })
      .waitFor();
    await page
      .getByRole('region', { name: 'Time travel' })
      .getByText(/^As of /)
      .waitFor();
    await page.close();
  });
});
