import { startTestAgent, type TestAgent } from '@binnacle/agent/testing';
import {
  createCluster,
  docsScreenshot,
  type HubOwner,
  type HubProcess,
  hubProcessBreakGlass,
  launchBrowser,
  openPage,
  seriousA11yViolations,
  signInOwner,
  spawnHub,
  testCluster,
  waitUntil,
} from '@binnacle/testkit';
import { AppsV1Api, RbacAuthorizationV1Api, type V1Deployment } from '@kubernetes/client-node';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Compare across clusters (docs/compare.md) through a real `binnacle hub`: two clusters, `staging` and
 * `production`, each with its own agent (both on the shared control plane), each holding a `checkout` Deployment in
 * a namespace of its own. The owner reads both namespaces (a RoleBinding to `view`). The API and the hub's Compare
 * page, in Chromium, show the image and replica differences with the defaults and status folded.
 */
const cluster = testCluster();
const admin = cluster.kubeConfig('admin');
const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
const apps = admin.makeApiClient(AppsV1Api);
const binding = `web-compare-owner-${process.pid}`;
let hub: HubProcess;
let owner: HubOwner;
let browser: Browser;
let staging: { id: string; token: string };
let production: { id: string; token: string };
const namespaces: { name: string; remove: () => Promise<void> }[] = [];
const agents: TestAgent[] = [];

/** Staging recreates its one pod; production rolls two (the API server adds maxSurge/maxUnavailable). */
function checkout(replicas: number, image: string, recreate: boolean): V1Deployment {
  return {
    metadata: { name: 'checkout', labels: { app: 'checkout' } },
    spec: {
      replicas,
      ...(recreate ? { strategy: { type: 'Recreate' } } : {}),
      selector: { matchLabels: { app: 'checkout' } },
      template: {
        metadata: { labels: { app: 'checkout' } },
        spec: { containers: [{ name: 'checkout', image }] },
      },
    },
  };
}

const ownerSubject = {
  kind: 'User',
  name: `binnacle:user:${hubProcessBreakGlass.email}`,
  apiGroup: 'rbac.authorization.k8s.io',
};

const hubJson = async (path: string) => {
  const res = await fetch(`${hub.url}${path}`, { headers: { cookie: owner.cookie } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

const ns = (index: number) => namespaces[index]?.name ?? '';
const compareQuery = (right = 'checkout', rightCluster = production.id) =>
  `/api/compare?kind=deployments&leftCluster=${staging.id}&left=${ns(0)}/checkout&rightCluster=${rightCluster}&right=${ns(1)}/${right}`;

beforeAll(async () => {
  let stagingNs: (typeof namespaces)[number];
  let productionNs: (typeof namespaces)[number];
  [hub, browser, stagingNs, productionNs] = await Promise.all([
    spawnHub(),
    launchBrowser(),
    cluster.namespace('cmp-staging'),
    cluster.namespace('cmp-production'),
  ]);
  namespaces.push(stagingNs, productionNs);
  owner = await signInOwner(hub);
  await apps.createNamespacedDeployment({
    namespace: stagingNs.name,
    body: checkout(1, 'shop/checkout:1.4', true),
  });
  await apps.createNamespacedDeployment({
    namespace: productionNs.name,
    body: checkout(2, 'shop/checkout:1.5', false),
  });
  for (const { name } of namespaces)
    await rbac.createNamespacedRoleBinding({
      namespace: name,
      body: {
        metadata: { name: binding },
        subjects: [ownerSubject],
        roleRef: { kind: 'ClusterRole', name: 'view', apiGroup: 'rbac.authorization.k8s.io' },
      },
    });
  staging = await createCluster(hub, owner, 'staging');
  production = await createCluster(hub, owner, 'production');
  agents.push(
    ...(await Promise.all(
      [staging, production].map((c) =>
        startTestAgent({ config: { cloudUrl: hub.url, clusterToken: c.token } }),
      ),
    )),
  );
  await waitUntil(
    'both agents answer the comparison',
    async () => (await hubJson(compareQuery())).status === 200,
    { timeoutMs: 60_000, intervalMs: 500 },
  );
}, 180_000);
afterAll(async () => {
  await Promise.all(
    namespaces.map(({ name }) =>
      rbac.deleteNamespacedRoleBinding({ namespace: name, name: binding }).catch(() => undefined),
    ),
  );
  await Promise.all([
    browser?.close(),
    ...agents.map((a) => a.close()),
    ...namespaces.map((n) => n.remove()),
  ]);
  await hub?.stop();
});

interface Difference {
  path: string;
  left?: unknown;
  right?: unknown;
  folded?: string;
}

describe('GET /api/compare on the hub', () => {
  it('reads each side through its cluster and folds the defaults and status', async () => {
    const { status, body } = await hubJson(compareQuery());
    expect(status).toBe(200);
    expect(body).toMatchObject({
      kind: 'Deployment',
      left: { cluster: { id: staging.id, name: 'staging' }, namespace: ns(0), name: 'checkout' },
      right: { cluster: { id: production.id, name: 'production' }, namespace: ns(1), name: 'checkout' },
      identical: false,
      counts: { defaulted: 2 },
    });
    const differences = body.differences as Difference[];
    expect(differences.filter((d) => !d.folded)).toEqual([
      { path: 'spec.replicas', left: 1, right: 2 },
      { path: 'spec.strategy.type', left: 'Recreate', right: 'RollingUpdate' },
      {
        path: 'spec.template.spec.containers[name=checkout].image',
        left: 'shop/checkout:1.4',
        right: 'shop/checkout:1.5',
      },
    ]);
    expect(differences.filter((d) => d.folded === 'defaulted').map((d) => d.path)).toEqual([
      'spec.strategy.rollingUpdate.maxSurge',
      'spec.strategy.rollingUpdate.maxUnavailable',
    ]);
    expect(differences.some((d) => d.folded === 'server' && d.path === 'metadata.uid')).toBe(true);
  });

  it('names the side that failed, and hides clusters of other organisations', async () => {
    const missing = await hubJson(compareQuery('nothing-here'));
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'not_found' });
    expect(String(missing.body.error)).toMatch(/^right: .*nothing-here/);
    const elsewhere = await hubJson(compareQuery('checkout', 'no-such-cluster'));
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body).toMatchObject({ code: 'not_found', error: expect.stringMatching(/^right: /) });
    const unsigned = await fetch(`${hub.url}${compareQuery()}`);
    expect(unsigned.status).toBe(401);
  });
});

describe('the Compare page', () => {
  it('picks two clusters and shows the differences with the defaults folded', async () => {
    const page = await openPage(browser, `${hub.publicUrl}/compare`, 'light', { cookie: owner.cookie });
    await page.getByRole('heading', { name: 'Compare across clusters' }).waitFor();
    const form = page.getByRole('region', { name: 'What to compare' });
    await form.getByLabel('Kind').fill('deployments');
    const left = form.getByRole('group', { name: 'Left' });
    const right = form.getByRole('group', { name: 'Right' });
    await left.getByLabel('Cluster').selectOption({ label: 'staging' });
    await left.getByLabel('Namespace/name').fill(`${ns(0)}/checkout`);
    await right.getByLabel('Cluster').selectOption({ label: 'production' });
    // The suggestions come from the production cluster's own list.
    await right.locator(`datalist option[value="${ns(1)}/checkout"]`).waitFor({ state: 'attached' });
    await right.getByLabel('Namespace/name').fill(`${ns(1)}/checkout`);
    await form.getByRole('button', { name: 'Compare' }).click();

    const summary = page.getByRole('status').filter({ hasText: 'differences' });
    await summary.waitFor();
    expect(await summary.textContent()).toMatch(
      /^3 differences · folded: 2 defaults, \d+ status, \d+ set by the server · \d+ fields equal$/,
    );
    const table = page.getByRole('table', { name: 'Differences' });
    const imageRow = table.getByRole('row', { name: /containers\[name=checkout\]\.image/ });
    expect(await imageRow.getByRole('cell').allTextContents()).toEqual([
      'shop/checkout:1.4',
      'shop/checkout:1.5',
    ]);
    await table.getByRole('columnheader', { name: `staging · ${ns(0)}/checkout` }).waitFor();
    await table.getByRole('columnheader', { name: `production · ${ns(1)}/checkout` }).waitFor();
    // Folded: the defaults are there, closed, and open on a click.
    const defaults = page.locator('details').filter({ hasText: 'Defaults: 2 fields differ' });
    const maxSurge = defaults.getByRole('row', { name: /rollingUpdate\.maxSurge/ });
    expect(await maxSurge.isVisible()).toBe(false);
    await defaults.locator('summary').click();
    await maxSurge.waitFor();
    expect(await maxSurge.getByRole('cell').allTextContents()).toEqual(['not set', '25%']);
    expect(page.url()).toContain(`leftCluster=${staging.id}`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'compare-clusters');
    await page.context().close();
  });

  it("starts from an object's page in a cluster, with that object on the left", async () => {
    const page = await openPage(
      browser,
      `${hub.publicUrl}/c/${staging.id}/resources/deployments/${ns(0)}/checkout`,
      'dark',
      { cookie: owner.cookie },
    );
    await page.getByRole('link', { name: 'Compare across clusters →' }).click();
    await page.getByRole('heading', { name: 'Compare across clusters' }).waitFor();
    const left = page.getByRole('group', { name: 'Left' });
    expect(await left.getByLabel('Namespace/name').inputValue()).toBe(`${ns(0)}/checkout`);
    expect(await left.getByLabel('Cluster').inputValue()).toBe(staging.id);
    await page.context().close();
  });

  it("compares within one cluster on the agent's own page", async () => {
    const page = await openPage(
      browser,
      `${hub.publicUrl}/c/${staging.id}/compare?kind=deployments&left=${ns(0)}/checkout&right=${ns(1)}/checkout`,
      'light',
      { cookie: owner.cookie },
    );
    await page.getByRole('heading', { name: 'Compare', exact: true }).waitFor();
    await page.getByRole('status').filter({ hasText: '3 differences' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'compare');
    await page.context().close();
  });
});
