import { docsScreenshot, openPage, seriousA11yViolations, testCluster } from '@binnacle/testkit';
import { CustomObjectsApi } from '@kubernetes/client-node';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { agentInBrowser } from './browser-suite.ts';

// The ecosystem actions' buttons on object pages (docs/ecosystem-actions.md): each dialog shows the API server's
// dry run before the person confirms, and the change is the project's own CLI's, read back here.
const custom = testCluster().kubeConfig('admin').makeApiClient(CustomObjectsApi);
const web = agentInBrowser('ecoactions');
const scaledObjects = { group: 'keda.sh', version: 'v1alpha1', plural: 'scaledobjects' };
const certificates = { group: 'cert-manager.io', version: 'v1', plural: 'certificates' };

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
      body: {
        apiVersion: 'keda.sh/v1alpha1',
        kind: 'ScaledObject',
        metadata: { name: 'orders' },
        spec: {
          scaleTargetRef: { name: 'orders' },
          minReplicaCount: 1,
          maxReplicaCount: 10,
          triggers: [{ type: 'cpu', metricType: 'Utilization', metadata: { value: '60' } }],
        },
      },
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
      body: {
        apiVersion: 'cert-manager.io/v1',
        kind: 'Certificate',
        metadata: { name: 'storefront' },
        spec: {
          secretName: 'storefront-tls',
          dnsNames: ['shop.example.com'],
          issuerRef: { name: 'letsencrypt', kind: 'ClusterIssuer' },
        },
      },
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
});
