import {
  argoApplication,
  docsScreenshot,
  fluxDemo,
  fluxGroups,
  installFluxDemo,
  openPage,
  seriousA11yViolations,
  testCluster,
  waitUntil,
} from '@binnacle/testkit';
import { CustomObjectsApi } from '@kubernetes/client-node';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { agentInBrowser } from './browser-suite.ts';

// The seeded Applications (argocd) and Flux objects are only read here; actions run on this file's own objects.
const cluster = testCluster();
const kc = cluster.kubeConfig('admin');
const custom = kc.makeApiClient(CustomObjectsApi);
const argo = { group: 'argoproj.io', version: 'v1alpha1', plural: 'applications' };
const helmReleases = { ...fluxGroups.helm, plural: 'helmreleases' };
const web = agentInBrowser('web-gitops');

beforeAll(async () => {
  await custom.createNamespacedCustomObject({
    ...argo,
    namespace: web.ns.name,
    body: argoApplication('web', web.ns.name, 'web'),
  });
  await installFluxDemo(kc, cluster.state.chartSources.http, web.ns.name);
});

const open = (path: string, colorScheme?: 'light' | 'dark') =>
  openPage(web.browser, `${web.agent.url}${path}`, colorScheme);

/** The value of one fact of the summary (Sync, Health, Auto-sync, State, …). */
async function fact(page: Page, term: string): Promise<string> {
  const summary = page.getByRole('region', { name: 'Summary' });
  const value = summary.locator('div', {
    has: page.getByRole('term').filter({ hasText: new RegExp(`^${term}$`) }),
  });
  return ((await value.getByRole('definition').textContent()) ?? '').trim();
}

/** Clicks an action, ticks the given choices in its dialog, confirms, and waits for the agent's answer. */
async function act(page: Page, label: string, title: string, ticks: string[] = []): Promise<string> {
  await page
    .getByRole('region', { name: 'Actions' })
    .getByRole('button', { name: label, exact: true })
    .click();
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.waitFor();
  for (const tick of ticks) await dialog.getByRole('checkbox', { name: tick }).check();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await dialog.getByRole('button', { name: label, exact: true }).click();
  const done = page.getByRole('region', { name: 'Actions' }).getByRole('status');
  await done.waitFor();
  return (await done.textContent()) ?? '';
}

describe('the GitOps pages', () => {
  it('lists the Argo CD applications and Flux objects with their state', async () => {
    const page = await open('/');
    await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'GitOps' }).click();
    await page.getByRole('heading', { name: 'GitOps' }).waitFor();
    const apps = page.getByRole('region', { name: 'Argo CD applications' });
    const storefront = apps.getByRole('row').filter({ has: page.getByRole('link', { name: 'storefront' }) });
    // The heading shows before the overview answers.
    await storefront.waitFor();
    expect((await storefront.getByRole('cell').allTextContents()).slice(0, 5)).toEqual([
      'storefront',
      'argocd',
      'Synced',
      'Healthy',
      'on (prune, self-heal)',
    ]);
    const analytics = apps.getByRole('row').filter({ has: page.getByRole('link', { name: 'analytics' }) });
    expect((await analytics.getByRole('cell').allTextContents()).slice(2, 4)).toEqual([
      'OutOfSync',
      'Degraded',
    ]);
    const flux = page.getByRole('region', { name: 'Flux' });
    const release = flux
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: fluxDemo.helmRelease }), hasText: fluxDemo.namespace });
    expect((await release.getByRole('cell').allTextContents()).slice(0, 4)).toEqual([
      'HelmRelease',
      fluxDemo.helmRelease,
      fluxDemo.namespace,
      'Ready',
    ]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'gitops');
    const dark = await open('/gitops', 'dark');
    await dark.getByRole('region', { name: 'Flux' }).getByRole('row').nth(1).waitFor();
    expect(await seriousA11yViolations(dark)).toEqual([]);
    await docsScreenshot(dark, 'gitops-dark');
  });

  it('shows an application with what it manages and their live health', async () => {
    const page = await open('/gitops/applications/argocd/storefront');
    await page.getByRole('heading', { name: /Argo CD application argocd\/storefront/ }).waitFor();
    expect(await fact(page, 'Sync')).toBe('Synced');
    expect(await fact(page, 'Auto-sync')).toBe('on, prune, self-heal');
    const managed = page.getByRole('region', { name: 'Managed resources' });
    const deployment = managed.getByRole('row').filter({ hasText: 'Deployment' });
    expect(await deployment.getByRole('cell').allTextContents()).toEqual([
      'Deploymentapps',
      'demo-shop/storefront',
      'Synced',
      'Healthy',
      'healthy',
    ]);
    expect(await managed.getByRole('row').count()).toBe(5);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'gitops-application');
  });

  it('syncs with the chosen options, then suspends and resumes automated sync', async () => {
    const page = await open(`/gitops/applications/${web.ns.name}/web`);
    await page.getByRole('heading', { name: new RegExp(`${web.ns.name}/web`) }).waitFor();
    const said = await act(page, 'Sync', 'Sync Application web?', [
      'Prune: delete objects no longer in Git',
      'Server-side apply',
    ]);
    expect(said).toContain('See it on the timeline');
    const app = async () =>
      (await custom.getNamespacedCustomObject({ ...argo, namespace: web.ns.name, name: 'web' })) as {
        operation?: { sync: Record<string, unknown> };
        spec: { syncPolicy: { automated: Record<string, unknown> } };
      };
    expect((await app()).operation?.sync).toEqual({
      revision: 'main',
      prune: true,
      syncStrategy: { hook: {} },
      syncOptions: ['ServerSideApply=true'],
    });
    // Without Argo CD's controller here, the operation stays requested: the page says so and refuses a second sync.
    await page
      .getByRole('status', { name: 'Operation' })
      .filter({ hasText: "Sync requested: waiting for Argo CD's application controller" })
      .waitFor();
    expect(await page.getByRole('button', { name: 'Sync', exact: true }).isDisabled()).toBe(true);

    await act(page, 'Suspend auto-sync', 'Suspend auto-sync Application web?');
    await page.getByRole('button', { name: 'Resume auto-sync' }).waitFor();
    expect(await fact(page, 'Auto-sync')).toBe('suspended, prune, self-heal');
    expect((await app()).spec.syncPolicy.automated).toEqual({ enabled: false, prune: true, selfHeal: true });
    await act(page, 'Resume auto-sync', 'Resume auto-sync Application web?');
    await page.getByRole('button', { name: 'Suspend auto-sync' }).waitFor();
    expect((await app()).spec.syncPolicy.automated).toEqual({ enabled: true, prune: true, selfHeal: true });
  });

  it('drives a HelmRelease with the real Flux controllers: reconcile, suspend, resume', async () => {
    const page = await open(`/gitops/flux/HelmRelease/${web.ns.name}/${fluxDemo.helmRelease}`);
    await page.getByRole('heading', { name: new RegExp(`Flux HelmRelease ${web.ns.name}/`) }).waitFor();
    expect(await fact(page, 'State')).toBe('Ready');
    const managed = page.getByRole('region', { name: 'Managed resources' });
    await managed.getByRole('row').filter({ hasText: 'Deployment' }).getByText('healthy').waitFor();
    const release = async () =>
      (await custom.getNamespacedCustomObject({
        ...helmReleases,
        namespace: web.ns.name,
        name: fluxDemo.helmRelease,
      })) as {
        metadata: { annotations?: Record<string, string> };
        status?: { lastHandledReconcileAt?: string };
      };

    expect(await act(page, 'Reconcile', `Reconcile HelmRelease ${fluxDemo.helmRelease}?`)).toContain(
      'reconcile of HelmRelease',
    );
    const requested = (await release()).metadata.annotations?.['reconcile.fluxcd.io/requestedAt'];
    expect(requested).toBeTruthy();
    await waitUntil(
      'helm-controller handling the reconcile the page asked for',
      async () => (await release()).status?.lastHandledReconcileAt === requested,
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    await waitUntil(
      'the page showing the handled request',
      async () => (await fact(page, 'Last reconcile')) !== '—',
      {
        timeoutMs: 15_000,
        intervalMs: 250,
      },
    );
    expect(await fact(page, 'Revision')).toBe('1.2.0');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'gitops-flux');

    await act(page, 'Suspend', `Suspend HelmRelease ${fluxDemo.helmRelease}?`);
    await page.getByRole('button', { name: 'Resume', exact: true }).waitFor();
    expect(await fact(page, 'State')).toBe('Suspended');
    expect(await page.getByRole('button', { name: 'Reconcile', exact: true }).isDisabled()).toBe(true);
    await act(page, 'Resume', `Resume HelmRelease ${fluxDemo.helmRelease}?`);
    await page.getByRole('button', { name: 'Suspend', exact: true }).waitFor();
    await waitUntil('Ready again after resuming', async () => (await fact(page, 'State')) === 'Ready', {
      timeoutMs: 30_000,
      intervalMs: 500,
    });
  });
});
