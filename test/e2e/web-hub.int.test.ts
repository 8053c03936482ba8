import { startTestAgent, type TestAgent } from '@binnacle/agent/testing';
import {
  createCluster,
  type HubOwner,
  type HubProcess,
  hubProcessBreakGlass,
  launchBrowser,
  seriousA11yViolations,
  signInOwner,
  spawnHub,
  testCluster,
  waitUntil,
} from '@binnacle/testkit';
import { CoreV1Api, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  echoInTerminal,
  editYamlAndFollowToTimeline,
  openPodWithPalette,
  seeNewLogLine,
  seeShopEdges,
} from './ui-steps.ts';

/**
 * The web UI through a real `binnacle hub` process at `/c/<cluster_id>/`, in Chromium at the hub's own public
 * origin (http://localhost:<port>), so the hub's same-origin rules for cookie writes and WebSockets hold as in
 * production. Every request runs in the cluster as the signed-in owner, with what a RoleBinding gives them.
 */
const cluster = testCluster();
const core = cluster.kubeConfig('admin').makeApiClient(CoreV1Api);
const rbac = cluster.kubeConfig('admin').makeApiClient(RbacAuthorizationV1Api);
const user = `binnacle:user:${hubProcessBreakGlass.email}`;
const binding = `web-hub-admin-${process.pid}`;
const actedOn = ['demo-data', 'demo-shop'];
let hub: HubProcess;
let owner: HubOwner;
let agent: TestAgent;
let browser: Browser;
let clusterId: string;
let ns: { name: string; remove: () => Promise<void> };

beforeAll(async () => {
  [hub, browser, ns] = await Promise.all([spawnHub(), launchBrowser(), cluster.namespace('web-hub')]);
  owner = await signInOwner(hub);
  const registered = await createCluster(hub, owner, 'web');
  clusterId = registered.id;
  agent = await startTestAgent({ config: { cloudUrl: hub.url, clusterToken: registered.token } });
  await Promise.all(
    [...actedOn, ns.name].map((namespace) =>
      rbac.createNamespacedRoleBinding({
        namespace,
        body: {
          metadata: { name: binding },
          subjects: [{ kind: 'User', name: user, apiGroup: 'rbac.authorization.k8s.io' }],
          roleRef: { kind: 'ClusterRole', name: 'admin', apiGroup: 'rbac.authorization.k8s.io' },
        },
      }),
    ),
  );
  // Connected, and the new bindings in force for the owner (the API server's RBAC catches up within moments).
  await waitUntil(
    'the owner to list pods in demo-data through the hub',
    async () => {
      const res = await fetch(`${hub.url}/c/${clusterId}/api/resources/pods?namespace=demo-data`, {
        headers: { cookie: owner.cookie },
      });
      return res.ok && JSON.stringify(await res.json()).includes('postgres-0');
    },
    { timeoutMs: 30_000, intervalMs: 250 },
  );
});
afterAll(async () => {
  await Promise.all(
    actedOn.map((namespace) =>
      rbac.deleteNamespacedRoleBinding({ namespace, name: binding }).catch(() => undefined),
    ),
  );
  await Promise.all([browser?.close(), agent?.close(), ns?.remove()]);
  await hub?.stop();
});

async function open(path: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const [name = '', value = ''] = owner.cookie.split('=');
  await context.addCookies([{ name, value, url: hub.publicUrl, httpOnly: true }]);
  const page = await context.newPage();
  await page.goto(`${hub.publicUrl}/c/${clusterId}${path}`);
  return page;
}

describe('the web UI through the hub', () => {
  it('finds a pod with the palette, streams its log and opens a shell in it, as the signed-in owner', async () => {
    const page = await open('/');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await openPodWithPalette(page);
    expect(new URL(page.url()).pathname).toBe(`/c/${clusterId}/resources/pods/demo-data/postgres-0`);
    await seeNewLogLine(page);
    // A shell in a pod of this file's own, so no other test's terminal shares it.
    await core.createNamespacedPod({
      namespace: ns.name,
      body: {
        metadata: { name: 'hub-shell' },
        spec: { containers: [{ name: 'main', image: 'busybox:1.37' }] },
      },
    });
    await waitUntil(
      'hub-shell to run',
      async () =>
        (await core.readNamespacedPod({ namespace: ns.name, name: 'hub-shell' })).status?.phase === 'Running',
      { timeoutMs: 30_000 },
    );
    await page.goto(`${hub.publicUrl}/c/${clusterId}/resources/pods/${ns.name}/hub-shell`);
    await echoInTerminal(page);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.context().close();
  }, 180_000); // up to three shell sessions of 30 s each under load

  it("edits a ConfigMap's YAML through the hub: dry-run diff, apply as the owner, the change on the timeline", async () => {
    await core.createNamespacedConfigMap({
      namespace: ns.name,
      body: { metadata: { name: 'hub-edit' }, data: { color: 'blue' } },
    });
    const page = await open(`/resources/configmaps/${ns.name}/hub-edit`);
    await editYamlAndFollowToTimeline(
      page,
      { kind: 'ConfigMap', name: 'hub-edit' },
      { from: 'color: blue', to: 'color: green' },
    );
    expect(new URL(page.url()).pathname).toBe(`/c/${clusterId}/timeline`);
    // The apply is an action of the signed-in owner, named on the timeline.
    await page
      .getByRole('list', { name: 'Changes' })
      .getByRole('button')
      .filter({ hasText: 'Apply' })
      .filter({ hasText: `by ${user}` })
      .first()
      .waitFor();
    const stored = await core.readNamespacedConfigMap({ namespace: ns.name, name: 'hub-edit' });
    expect(stored.data).toEqual({ color: 'green' });
    await page.context().close();
  });

  it("offers no shell on the agent's host through the hub, and says why", async () => {
    const page = await open('/terminal');
    await page.getByText('It is not served through the hub').waitFor();
    expect(
      await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Terminal' }).count(),
    ).toBe(0);
    await page.context().close();
  });

  it("switches to another cluster of the organization, and goes back to the hub's pages", async () => {
    const other = await createCluster(hub, owner, `web-other-${process.pid}`);
    const page = await open('/');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const picker = page.getByLabel('Switch cluster');
    // The clusters list loads on its own, after the dashboard's heading may show.
    await picker.locator('option', { hasText: `web-other-${process.pid}` }).waitFor({ state: 'attached' });
    expect(await picker.locator('option').allTextContents()).toEqual(
      expect.arrayContaining(['web', `web-other-${process.pid} (not connected)`]),
    );
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'All clusters' }).click();
    await page.getByRole('heading', { name: 'Clusters', exact: true }).waitFor();
    await page.goto(`${hub.publicUrl}/c/${clusterId}/`);
    await page.getByLabel('Switch cluster').selectOption(other.id);
    await page.waitForURL(`${hub.publicUrl}/c/${other.id}/`);
    await page.context().close();
  });

  it('draws the topology from a deep link opened in a fresh page', async () => {
    const page = await open('/topology?namespace=demo-shop&group=app');
    await seeShopEdges(page);
    await page.getByRole('region', { name: 'Topology graph' }).getByText('storefront (demo-shop)').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.context().close();
  });
});
