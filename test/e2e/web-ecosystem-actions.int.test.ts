import {
  certificate,
  ecosystemKinds,
  nodeClaim,
  postgresCluster,
  scaledObject,
  veleroSchedule,
} from '@binnacle/agent/testing';
import { docsScreenshot, openPage, seriousA11yViolations, testCluster } from '@binnacle/testkit';
import { CustomObjectsApi } from '@kubernetes/client-node';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { agentInBrowser } from './browser-suite.ts';

// The ecosystem actions' buttons on object pages (docs/ecosystem-actions.md): each dialog shows the API server's
// dry run before the person confirms, and the change is the project's own CLI's, read back here.
const custom = testCluster().kubeConfig('admin').makeApiClient(CustomObjectsApi);
const web = agentInBrowser('ecoactions');
const {
  scaledObjects,
  certificates,
  schedules,
  veleroBackups: backups,
  nodeClaims,
  postgresClusters,
  postgresBackups,
} = ecosystemKinds;

const annotationsOf = async (name: string) =>
  (
    (await custom.getNamespacedCustomObject({ ...scaledObjects, namespace: web.ns.name, name })) as {
      metadata: { annotations?: Record<string, string> };
    }
  ).metadata.annotations ?? {};

/** Every request the page makes to act, as it makes them: the dry runs and the one confirmed. */
function actions(page: Page): { url: string; body: string }[] {
  const seen: { url: string; body: string }[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/ecosystem/'))
      seen.push({ url: new URL(request.url()).pathname, body: request.postData() ?? '' });
  });
  return seen;
}

describe('ecosystem actions on object pages', () => {
  it('pauses a ScaledObject at a count after showing the dry run, then resumes it', async () => {
    const ns = web.ns.name;
    await custom.createNamespacedCustomObject({
      ...scaledObjects,
      namespace: ns,
      body: scaledObject('orders'),
    });
    const page = await openPage(web.browser, `${web.agent.url}/resources/scaledobjects.keda.sh/${ns}/orders`);
    const sent = actions(page);
    await page.getByRole('button', { name: 'Pause autoscaling' }).click({ timeout: 30_000 });
    const dialog = page.getByRole('dialog', { name: 'Pause autoscaling ScaledObject orders?' });
    const dryRun = dialog.getByRole('region', { name: 'Dry run' });
    await dryRun.getByText(`ScaledObject ${ns}/orders would be paused (dry run: nothing changed)`).waitFor();
    await dialog.getByLabel('Hold at replicas (optional)').fill('2');
    await dryRun
      .getByText(`ScaledObject ${ns}/orders would be paused at 2 replicas (dry run: nothing changed)`)
      .waitFor();
    expect(await annotationsOf('orders')).toEqual({});
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'ecosystem-actions');

    await dialog.getByRole('button', { name: 'Pause autoscaling' }).click();
    await page.getByRole('status').getByText(`ScaledObject ${ns}/orders paused at 2 replicas`).waitFor();
    expect(await annotationsOf('orders')).toEqual({
      'autoscaling.keda.sh/paused': 'true',
      'autoscaling.keda.sh/paused-replicas': '2',
    });
    expect(sent.map((s) => JSON.parse(s.body))).toEqual([
      { dryRun: true },
      { dryRun: true, replicas: 2 },
      { dryRun: false, replicas: 2 },
    ]);

    // The page reads the object again: paused now, it offers Resume.
    await page.getByRole('button', { name: 'Resume autoscaling' }).click({ timeout: 30_000 });
    const resume = page.getByRole('dialog', { name: 'Resume autoscaling ScaledObject orders?' });
    await resume.getByText(`ScaledObject ${ns}/orders would be resumed (dry run: nothing changed)`).waitFor();
    await resume.getByRole('button', { name: 'Resume autoscaling' }).click();
    await page.getByRole('status').getByText(`ScaledObject ${ns}/orders resumed`).waitFor();
    expect(await annotationsOf('orders')).toEqual({});
    await page.context().close();
  });

  it('renews a Certificate after showing the dry run', async () => {
    const ns = web.ns.name;
    await custom.createNamespacedCustomObject({
      ...certificates,
      namespace: ns,
      body: certificate('storefront'),
    });
    const page = await openPage(
      web.browser,
      `${web.agent.url}/resources/certificates.cert-manager.io/${ns}/storefront`,
    );
    await page.getByRole('button', { name: 'Renew' }).click({ timeout: 30_000 });
    const dialog = page.getByRole('dialog', { name: 'Renew Certificate storefront?' });
    await dialog
      .getByText(`re-issuance of Certificate ${ns}/storefront would be requested (dry run: nothing changed)`)
      .waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Renew' }).click();
    await page
      .getByRole('status')
      .getByText(`re-issuance of Certificate ${ns}/storefront requested`)
      .waitFor();
    const renewed = (await custom.getNamespacedCustomObject({
      ...certificates,
      namespace: ns,
      name: 'storefront',
    })) as {
      status?: { conditions?: { type: string; reason?: string }[] };
    };
    expect(renewed.status?.conditions).toEqual([
      expect.objectContaining({ type: 'Issuing', reason: 'ManuallyTriggered' }),
    ]);
    await page.context().close();
  });

  it('backs up now from a Velero Schedule, and disrupts a NodeClaim (cluster-scoped)', async () => {
    const ns = web.ns.name;
    await custom.createNamespacedCustomObject({
      ...schedules,
      namespace: ns,
      body: veleroSchedule('nightly', [ns]),
    });
    const page = await openPage(web.browser, `${web.agent.url}/resources/schedules.velero.io/${ns}/nightly`);
    await page.getByRole('button', { name: 'Back up now' }).click({ timeout: 30_000 });
    const dialog = page.getByRole('dialog', { name: 'Back up now Schedule nightly?' });
    await dialog.getByText(/^Backup .*\/nightly-\d{14} of Schedule .*\/nightly would be created/).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Back up now' }).click();
    await page
      .getByRole('status')
      .getByText(/^Backup .*\/nightly-\d{14} of Schedule .*\/nightly created/)
      .waitFor();
    const made = (await custom.listNamespacedCustomObject({
      ...backups,
      namespace: ns,
      labelSelector: 'velero.io/schedule-name=nightly',
    })) as { items: unknown[] };
    expect(made.items).toHaveLength(1);

    const claim = `${ns}-claim`;
    await custom.createClusterCustomObject({ ...nodeClaims, body: nodeClaim(claim) });
    await page.goto(`${web.agent.url}/resources/nodeclaims.karpenter.sh/_/${claim}`);
    await page.getByRole('button', { name: 'Disrupt' }).click({ timeout: 30_000 });
    const disrupt = page.getByRole('dialog', { name: `Disrupt NodeClaim ${claim}?` });
    await disrupt.getByText(`NodeClaim ${claim} would be deleted`, { exact: false }).waitFor();
    await disrupt.getByRole('button', { name: 'Disrupt' }).click();
    // The object is gone at once (no Karpenter runs here to hold it by its finalizer): the page says so and
    // shows its last state, without the actions.
    await page.getByText('Below is its last state').waitFor({ timeout: 30_000 });
    await expect(custom.getClusterCustomObject({ ...nodeClaims, name: claim })).rejects.toThrow(/404/);
    await page.context().close();
  });

  it('backs up a CloudNativePG Cluster with the plugin flags chosen, each choice dry-run first', async () => {
    const ns = web.ns.name;
    await custom.createNamespacedCustomObject({
      ...postgresClusters,
      namespace: ns,
      body: postgresCluster('pg'),
    });
    const page = await openPage(
      web.browser,
      `${web.agent.url}/resources/clusters.postgresql.cnpg.io/${ns}/pg`,
    );
    const sent = actions(page);
    await page.getByRole('button', { name: 'Back up now' }).click({ timeout: 30_000 });
    const dialog = page.getByRole('dialog', { name: 'Back up now Cluster pg?' });
    const wouldBe = /^Backup .*\/pg-\d{14} of Cluster .*\/pg would be created/;
    await dialog.getByText(wouldBe).waitFor();
    await dialog.getByRole('combobox', { name: /^Method/ }).selectOption('plugin');
    // A plugin backup names its plugin, as kubectl cnpg backup --plugin-name: confirming waits for it.
    await dialog.getByText('Name the plugin that takes the backup.').waitFor();
    expect(await dialog.getByRole('button', { name: 'Back up now' }).isDisabled()).toBe(true);
    await dialog.getByRole('textbox', { name: 'Plugin' }).fill('barman-cloud.cloudnative-pg.io');
    // Parameters as --plugin-parameters takes them; a name the route refuses is named before anything is sent.
    const parameters = dialog.getByRole('textbox', { name: 'Parameters' });
    await parameters.fill('object store=minio');
    await dialog.getByText('"object store" is not a parameter name').waitFor();
    expect(await dialog.getByRole('button', { name: 'Back up now' }).isDisabled()).toBe(true);
    await parameters.fill('barmanObjectName=minio-store');
    await dialog.getByRole('combobox', { name: /^Target/ }).selectOption('prefer-standby');
    // How an online backup starts and ends is asked only of a backup that may run online.
    const online = dialog.getByRole('combobox', { name: /^Online/ });
    await online.selectOption('offline');
    await dialog.getByRole('combobox', { name: /^Immediate checkpoint/ }).waitFor({ state: 'detached' });
    expect(await dialog.getByRole('combobox', { name: /^Wait for WAL archive/ }).count()).toBe(0);
    await online.selectOption('online');
    await dialog.getByRole('combobox', { name: /^Immediate checkpoint/ }).selectOption('yes');
    await expect
      .poll(() => sent.at(-1)?.body)
      .toBe(
        JSON.stringify({
          dryRun: true,
          method: 'plugin',
          plugin: 'barman-cloud.cloudnative-pg.io',
          pluginParameters: { barmanObjectName: 'minio-store' },
          target: 'prefer-standby',
          online: true,
          immediateCheckpoint: true,
        }),
      );
    await dialog.getByText(wouldBe).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'ecosystem-postgres-backup');
    await dialog.getByRole('button', { name: 'Back up now' }).click();
    await page
      .getByRole('status')
      .getByText(/^Backup .*\/pg-\d{14} of Cluster .*\/pg created/)
      .waitFor();
    const made = (await custom.listNamespacedCustomObject({
      ...postgresBackups,
      namespace: ns,
      labelSelector: 'cnpg.io/cluster=pg',
    })) as { items: { spec: Record<string, unknown> }[] };
    expect(made.items.map((b) => b.spec)).toEqual([
      {
        cluster: { name: 'pg' },
        method: 'plugin',
        pluginConfiguration: {
          name: 'barman-cloud.cloudnative-pg.io',
          parameters: { barmanObjectName: 'minio-store' },
        },
        target: 'prefer-standby',
        online: true,
        // The CRD's schema defaults waitForArchive to true when a Backup sets onlineConfiguration.
        onlineConfiguration: { immediateCheckpoint: true, waitForArchive: true },
      },
    ]);
    await page.context().close();
  });
});
