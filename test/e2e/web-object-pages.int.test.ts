import { docsScreenshot, openPage, seriousA11yViolations, testCluster } from '@binnacle/testkit';
import { BatchV1Api, CoreV1Api, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { agentInBrowser } from './browser-suite.ts';

const cluster = testCluster();
const admin = cluster.kubeConfig('admin');
const web = agentInBrowser('pages');
let page: Page;

/**
 * What the seed lacks, in a namespace of this file's own: RBAC objects, a quota and a limit range, and a CronJob
 * with a Job of its history.
 */
async function plant(namespace: string) {
  const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
  const batch = admin.makeApiClient(BatchV1Api);
  const core = admin.makeApiClient(CoreV1Api);
  await core.createNamespacedServiceAccount({ namespace, body: { metadata: { name: 'reporter' } } });
  await core.createNamespacedResourceQuota({
    namespace,
    body: { metadata: { name: 'pods-cap' }, spec: { hard: { pods: '10' } } },
  });
  await core.createNamespacedLimitRange({
    namespace,
    body: {
      metadata: { name: 'container-defaults' },
      spec: {
        limits: [{ type: 'Container', _default: { memory: '256Mi' }, defaultRequest: { memory: '128Mi' } }],
      },
    },
  });
  await rbac.createNamespacedRole({
    namespace,
    body: {
      metadata: { name: 'config-reader' },
      rules: [
        { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'], resourceNames: ['storefront'] },
      ],
    },
  });
  await rbac.createNamespacedRoleBinding({
    namespace,
    body: {
      metadata: { name: 'reporter-reads-config' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'config-reader' },
      subjects: [{ kind: 'ServiceAccount', name: 'reporter', namespace }],
    },
  });
  const template = {
    spec: { restartPolicy: 'Never', containers: [{ name: 'report', image: 'busybox:1.37' }] },
  };
  const cron = await batch.createNamespacedCronJob({
    namespace,
    body: {
      metadata: { name: 'hourly-report' },
      spec: {
        schedule: '0 * * * *',
        suspend: true,
        concurrencyPolicy: 'Forbid',
        jobTemplate: { spec: { template } },
      },
    },
  });
  await batch.createNamespacedJob({
    namespace,
    body: {
      metadata: {
        name: 'hourly-report-manual',
        ownerReferences: [
          { apiVersion: 'batch/v1', kind: 'CronJob', name: 'hourly-report', uid: cron.metadata?.uid ?? '' },
        ],
      },
      spec: { template },
    },
  });
}

beforeAll(async () => {
  await plant(web.ns.name);
  page = await openPage(web.browser, `${web.agent.url}/`);
});

/** Opens an object's page in the one shared page and answers its details card once it shows. */
async function visit(path: string, card: string) {
  await page.goto(`${web.agent.url}/resources/${path}`);
  const region = page.getByRole('region', { name: card });
  await region.waitFor();
  return region;
}

/** No serious accessibility violation, then (for the docs) the details card at the top of the window. */
async function check(card: string, image?: string) {
  expect(await seriousA11yViolations(page)).toEqual([]);
  if (!image) return;
  // The page scrolls inside <main>, under the app's header: the card goes to the top of that scroller.
  await page.getByRole('region', { name: card }).evaluate((e) => {
    const main = e.closest('main');
    if (main) main.scrollTop += e.getBoundingClientRect().top - main.getBoundingClientRect().top - 16;
  });
  await docsScreenshot(page, image);
}

const cell = (name: string) => page.getByRole('cell', { name, exact: true });

describe('the object pages of each kind', () => {
  it('shows a Deployment’s rollout in words, its revisions, its pods and its events with times', async () => {
    const rollout = await visit('deployments/demo-shop/storefront', 'Rollout');
    await rollout.getByText(/Rolled out: 3 of 3 replicas updated and available/).waitFor();
    expect(await rollout.getByLabel('Rollout facts').textContent()).toContain('RollingUpdate, max surge 25%');
    await rollout.getByRole('cell', { name: 'Available', exact: true }).waitFor();
    await page.getByRole('table', { name: 'Revisions' }).getByText('current').waitFor();
    await page
      .getByRole('region', { name: 'Pods' })
      .getByRole('link', { name: /storefront-/ })
      .first()
      .waitFor();
    const events = page.getByRole('table', { name: 'Events' });
    await events.getByRole('cell', { name: 'ScalingReplicaSet' }).first().waitFor();
    // Ages on the page, the exact moment on hover.
    expect(await events.locator('time').first().getAttribute('title')).toMatch(/\d/);
    await check('Rollout', 'object-deployment');
  });

  it('shows a Service’s ports and the ready endpoints behind it, linked to their pods', async () => {
    const service = await visit('services/demo-shop/storefront', 'Service');
    expect(await service.getByLabel('Service facts').textContent()).toContain('ClusterIP');
    await service.getByRole('table', { name: 'Ports' }).getByText('→ http').waitFor();
    const endpoints = page.getByRole('region', { name: 'Endpoints' });
    await endpoints.getByText('3 of 3 ready').waitFor();
    await endpoints
      .getByRole('link', { name: /storefront-/ })
      .first()
      .waitFor();
    await check('Service', 'object-service');
  });

  it('shows an Ingress’s rules down to Services and ports, and its TLS secret', async () => {
    const ingress = await visit('ingresses/demo-shop/storefront', 'Ingress');
    const rules = ingress.getByRole('table', { name: 'Rules' });
    await rules.getByRole('link', { name: 'demo-shop/checkout' }).waitFor();
    await rules.getByRole('link', { name: 'demo-shop/storefront' }).waitFor();
    expect(await rules.getByText('no such Service').count()).toBe(0);
    await ingress
      .getByRole('table', { name: 'TLS' })
      .getByRole('link', { name: 'demo-shop/storefront-tls' })
      .waitFor();
    await check('Ingress', 'object-ingress');
  });

  it('shows a claim bound to its volume and class, and the pod that mounts it', async () => {
    const claim = await visit('persistentvolumeclaims/demo-data/data-postgres-0', 'Claim');
    await claim.getByText('Bound').waitFor();
    await claim.getByRole('link', { name: 'kwok-volume' }).waitFor();
    await page
      .getByRole('region', { name: 'Mounted by' })
      .getByRole('link', { name: 'demo-data/postgres-0' })
      .waitFor();
    await check('Claim');
    // The facts link the class first, then the volume.
    await claim.getByLabel('Claim facts').getByRole('link').nth(1).click();
    const volume = page.getByRole('region', { name: 'Volume' });
    await volume.getByRole('link', { name: 'demo-data/data-postgres-0' }).waitFor();
    expect(await volume.getByLabel('Volume facts').textContent()).toContain('RWO');
    await check('Volume');
    await volume.getByRole('link', { name: 'kwok-volume' }).click();
    const storageClass = page.getByRole('region', { name: 'Storage class' });
    await storageClass.getByRole('link', { name: 'demo-data/data-postgres-0' }).waitFor();
    expect(await storageClass.getByLabel('Storage class facts').textContent()).toContain(
      'kwok.x-k8s.io/volume',
    );
    await check('Storage class');
  });

  it('shows which pods a NetworkPolicy selects and links to the namespace’s matrix', async () => {
    const policy = await visit('networkpolicies/demo-shop/checkout-from-storefront', 'Policy');
    const facts = await policy.getByLabel('Policy facts').textContent();
    expect(facts).toContain('app.kubernetes.io/name=checkout');
    expect(facts).toContain('1 rule lets traffic through');
    expect(facts).toContain('not restricted by this policy');
    await check('Policy');
    await policy.getByRole('link', { name: /See what the policies of demo-shop allow/ }).click();
    await page.waitForURL(/\/network-policies\?matrix=demo-shop/);
  });

  it('shows a CronJob’s schedule and policy with the Jobs it keeps', async () => {
    const schedule = await visit(`cronjobs/${web.ns.name}/hourly-report`, 'Schedule');
    const facts = await schedule.getByLabel('Schedule facts').textContent();
    expect(facts).toContain('0 * * * *: Every hour, on the hour');
    expect(facts).toContain('Forbid');
    expect(facts).toContain('yes: no new runs');
    await page
      .getByRole('table', { name: 'Jobs' })
      .getByRole('link', { name: `${web.ns.name}/hourly-report-manual` })
      .waitFor();
    await check('Schedule', 'object-cronjob');
  });

  it('shows a Job’s completions and its pods', async () => {
    const job = await visit(`jobs/${web.ns.name}/hourly-report-manual`, 'Job');
    // kwok runs the pod to completion at once: the Job may already be done.
    expect(await job.getByLabel('Job facts').textContent()).toMatch(/Completions[01] of 1/);
    await page
      .getByRole('region', { name: 'Pods' })
      .getByRole('link', { name: /hourly-report-manual-/ })
      .waitFor();
    await check('Job');
  });

  it('shows an HPA’s target, bounds and each metric against its target', async () => {
    const hpa = await visit('horizontalpodautoscalers/demo-shop/storefront', 'Autoscaling');
    await hpa.getByRole('link', { name: 'demo-shop/storefront' }).waitFor();
    expect(await hpa.getByLabel('Autoscaling facts').textContent()).toContain('3 to 10 replicas');
    await hpa.getByRole('table', { name: 'Metrics' }).getByRole('cell', { name: '70%' }).waitFor();
    await hpa.getByRole('cell', { name: 'AbleToScale', exact: true }).waitFor();
    await check('Autoscaling', 'object-hpa');
  });

  it('shows a Role’s rules as a table and the binding that grants it, and the binding’s subjects', async () => {
    const role = await visit(`roles/${web.ns.name}/config-reader`, 'Rules');
    const rules = role.getByRole('table', { name: 'Rules' });
    await rules.getByRole('cell', { name: 'get, list, watch' }).waitFor();
    await rules.getByRole('cell', { name: 'storefront' }).waitFor();
    await role.getByRole('link', { name: `${web.ns.name}/reporter-reads-config` }).click();
    const binding = page.getByRole('region', { name: 'Binding' });
    await binding.getByRole('link', { name: `${web.ns.name}/config-reader` }).waitFor();
    await binding
      .getByRole('table', { name: 'Subjects' })
      .getByRole('link', { name: `${web.ns.name}/reporter` })
      .waitFor();
    await check('Binding');
    await visit(`roles/${web.ns.name}/config-reader`, 'Rules');
    await cell('core').waitFor();
    await check('Rules', 'object-role');
  });

  it('shows how a built-in ClusterRole aggregates, both ways', async () => {
    const rules = await visit('clusterroles/_/edit', 'Rules');
    const aggregation = await rules.getByLabel('Aggregation').textContent();
    expect(aggregation).toContain('rbac.authorization.k8s.io/aggregate-to-edit=true');
    expect(aggregation).toContain('admin');
    await rules
      .getByRole('table', { name: 'Rules' })
      .getByRole('cell', { name: 'secrets', exact: false })
      .first()
      .waitFor();
    await check('Rules');
  });

  it('shows a Namespace’s quotas and limit ranges', async () => {
    const namespace = await visit(`namespaces/_/${web.ns.name}`, 'Namespace');
    const quotas = namespace.getByRole('table', { name: 'Resource quotas' });
    await quotas.getByRole('link', { name: `${web.ns.name}/pods-cap` }).waitFor();
    await quotas.getByRole('cell', { name: '10', exact: true }).waitFor();
    const limits = namespace.getByRole('table', { name: 'Limit ranges' });
    await limits.getByRole('cell', { name: '256Mi', exact: true }).waitFor();
    await limits.getByRole('cell', { name: '128Mi', exact: true }).waitFor();
    await check('Namespace');
  });

  it('shows a Secret’s keys and sizes, never its values', async () => {
    const data = await visit('secrets/demo-shop/storefront-credentials', 'Data');
    await data.getByRole('table', { name: 'Keys' }).getByRole('row').nth(1).waitFor();
    expect(await data.textContent()).not.toContain(
      Buffer.from('demo-session-key-not-a-real-secret').toString('base64'),
    );
    expect(await data.textContent()).not.toContain('demo-session-key-not-a-real-secret');
    await check('Data');
  });
});
