import { startTestAgent, type TestAgent } from '@binnacle/agent/testing';
import {
  deploymentBody,
  docsScreenshot,
  type HubbleServer,
  hubbleFlow,
  launchBrowser,
  openPage,
  seriousA11yViolations,
  startHubbleServer,
  testCluster,
  waitUntil,
  world,
} from '@binnacle/testkit';
import { AppsV1Api, CoreV1Api, NetworkingV1Api, type V1Pod } from '@kubernetes/client-node';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The seeded shop's policy is edited and deleted only as far as the review and the confirmation: nothing in
// demo-shop changes. The proposal is applied in a namespace of this file's own.
const kc = testCluster().kubeConfig('admin');
const core = kc.makeApiClient(CoreV1Api);
let hubble: HubbleServer;
let agent: TestAgent;
let browser: Browser;
let ns: { name: string; remove: () => Promise<void> };

async function running(namespace: string, selector?: string): Promise<V1Pod[]> {
  const pods = await core.listNamespacedPod({ namespace, labelSelector: selector });
  return pods.items.filter((p) => p.status?.phase === 'Running' && p.status.podIP);
}

/** A Deployment `web` called by a Deployment `shopper` in this file's namespace, running with their IPs. */
async function ownPods(namespace: string): Promise<{ web: V1Pod; shopper: V1Pod }> {
  const apps = kc.makeApiClient(AppsV1Api);
  await Promise.all(
    ['web', 'shopper'].map((name) =>
      apps.createNamespacedDeployment({ namespace, body: deploymentBody(name) }),
    ),
  );
  let pods: V1Pod[] = [];
  await waitUntil(
    'the pods of the namespace running',
    async () => {
      pods = await running(namespace);
      return pods.length === 2;
    },
    { timeoutMs: 30_000 },
  );
  const named = (app: string) => pods.find((p) => p.metadata?.labels?.app === app) as V1Pod;
  return { web: named('web'), shopper: named('shopper') };
}

beforeAll(async () => {
  ns = await testCluster().namespace('whatif-web');
  const [[storefront], [checkout], [postgres], billings, own] = await Promise.all([
    running('demo-shop', 'app.kubernetes.io/name=storefront'),
    running('demo-shop', 'app.kubernetes.io/name=checkout'),
    running('demo-data', 'app.kubernetes.io/name=postgres'),
    running('demo-billing'),
    ownPods(ns.name),
  ]);
  const billing = billings.find((p) => p.metadata?.ownerReferences?.[0]?.name.startsWith('billing-'));
  if (!storefront || !checkout || !postgres || !billing) throw new Error('the seeded shop is not running');
  const time = Date.now() - 20_000;
  hubble = await startHubbleServer({
    flows: [
      hubbleFlow(world('203.0.113.10'), storefront, { time, syn: true }),
      hubbleFlow(storefront, checkout, { time, syn: true }),
      hubbleFlow(checkout, postgres, { time, port: 5432, syn: true }),
      // The seeded checkout-from-storefront policy drops billing's calls.
      hubbleFlow(billing, checkout, { time, syn: true, verdict: 'DROPPED' }),
      hubbleFlow(own.shopper, own.web, { time, syn: true }),
    ],
  });
  [agent, browser] = await Promise.all([
    startTestAgent({ config: { hubbleAddress: hubble.address } }),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  await Promise.all([browser?.close(), agent?.close(), hubble?.close(), ns?.remove()]);
});

const cells = async (page: Page, table: string) =>
  (await page.getByRole('table', { name: table }).locator('tbody tr').allInnerTexts()).map((t) =>
    t.replace(/\s+/g, ' ').trim(),
  );

describe('the traffic impact of a NetworkPolicy', () => {
  it('shows, in the YAML editor’s review, the observed flows an edit newly denies and the rule that decides', async () => {
    const page = await openPage(
      browser,
      `${agent.url}/resources/NetworkPolicy/demo-shop/checkout-from-storefront`,
    );
    const card = page.getByRole('region', { name: 'YAML' });
    await card.getByRole('button', { name: 'Edit' }).click();
    const editor = page.getByRole('textbox', { name: 'YAML of NetworkPolicy checkout-from-storefront' });
    await editor.waitFor();
    // biome-ignore lint/performance/useDomNodeTextContent: CodeMirror renders lines as blocks; only the rendered text has the line breaks.
    const text = (await editor.innerText()).replaceAll('\u00a0', ' ');
    expect(text).toContain('port: 8080');
    await editor.press('ControlOrMeta+a');
    await page.keyboard.insertText(text.replace('port: 8080', 'port: 9090'));
    await card.getByRole('button', { name: 'Review changes' }).click();
    const tabs = card.getByRole('tablist', { name: 'Review' });
    await page.getByRole('textbox', { name: 'The object after the apply' }).waitFor();
    await tabs.getByRole('tab', { name: 'Traffic impact' }).click();
    const denied = page.getByRole('table', { name: 'Newly denied' });
    await denied.waitFor();
    expect(await cells(page, 'Newly denied')).toEqual([
      'demo-shop/storefront demo-shop/checkout TCP 8080 1 demo-shop/checkout-from-storefront ingress (isolates)',
    ]);
    await page.getByText('1 newly denied').waitFor();
    const matrix = page.getByRole('table', { name: 'Reachability in demo-shop before and after' });
    // The matrix asks for any TCP port: 9090 stays open.
    await matrix.getByText('storefront to checkout: allowed, unchanged').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await card.scrollIntoViewIfNeeded();
    await docsScreenshot(page, 'network-policy-traffic-impact');
    // Nothing was applied: back, and cancelled.
    await card.getByRole('button', { name: 'Back to editing' }).click();
    await card.getByRole('button', { name: 'Cancel' }).click();

    // Deleting it would let billing's dropped calls through.
    await card.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('table', { name: 'Newly allowed' }).waitFor();
    expect(await cells(page, 'Newly allowed')).toEqual([
      'demo-billing/billing demo-shop/checkout TCP 8080 1 1 dropped no policy selects these pods',
    ]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    const stored = await kc
      .makeApiClient(NetworkingV1Api)
      .readNamespacedNetworkPolicy({ namespace: 'demo-shop', name: 'checkout-from-storefront' });
    expect(stored.spec?.ingress?.[0]?.ports?.[0]?.port).toBe(8080);
    await page.context().close();
  });

  it('proposes a policy for a namespace on the Traffic page, with its impact; an edit is tested and applied as the caller', async () => {
    const page = await openPage(browser, `${agent.url}/traffic?namespace=demo-shop`);
    await page.getByRole('button', { name: 'Propose a policy' }).click();
    const card = page.getByRole('region', { name: 'Proposed NetworkPolicies · demo-shop' });
    const editor = card.getByRole('textbox', { name: 'Proposed NetworkPolicies for demo-shop' });
    await editor.waitFor();
    // biome-ignore lint/performance/useDomNodeTextContent: as above, the editor's lines.
    expect(await editor.innerText()).toContain('allow-observed-deployment-checkout');
    const impact = card.getByRole('region', { name: 'Traffic impact' });
    await impact.getByText('0 newly denied').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await card.scrollIntoViewIfNeeded();
    await docsScreenshot(page, 'traffic-propose-policy');
    await page.context().close();

    // In this file's own namespace: an edit narrowing the port, tested, then applied.
    const own = await openPage(browser, `${agent.url}/traffic?namespace=${ns.name}`);
    await own.getByRole('button', { name: 'Propose a policy' }).click();
    const ownCard = own.getByRole('region', { name: `Proposed NetworkPolicies · ${ns.name}` });
    const ownEditor = ownCard.getByRole('textbox', { name: `Proposed NetworkPolicies for ${ns.name}` });
    await ownEditor.waitFor();
    // CodeMirror draws only the lines in view: the whole text is the agent's (the same flows, the same proposal).
    const answer = await agent.post('/api/network-policies/propose', { namespace: ns.name });
    const { yaml: proposed } = (await answer.json()) as { yaml: string };
    expect(proposed.match(/port: 8080/g)).toHaveLength(2);
    await ownEditor.press('ControlOrMeta+a');
    await own.keyboard.insertText(proposed.replace('port: 8080', 'port: 8081'));
    await ownCard.getByRole('button', { name: 'Test the edit' }).click();
    await ownCard.getByRole('heading', { name: 'Traffic impact of your edit' }).waitFor();
    await ownCard.getByRole('table', { name: 'Newly denied' }).waitFor();
    expect(await cells(own, 'Newly denied')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${ns.name}/shopper ${ns.name}/web TCP 8080 1 ${ns.name}/allow-observed-deployment-\\w+ (ingress|egress) \\(isolates\\)`,
        ),
      ),
    ]);
    await ownEditor.press('ControlOrMeta+a');
    await own.keyboard.insertText(proposed);
    await ownCard.getByRole('button', { name: 'Apply' }).click();
    await ownCard.getByRole('status').filter({ hasText: 'Applied:' }).waitFor();
    const policies = await kc
      .makeApiClient(NetworkingV1Api)
      .listNamespacedNetworkPolicy({ namespace: ns.name });
    expect(policies.items.map((p) => p.metadata?.name).sort()).toEqual([
      'allow-observed-deployment-shopper',
      'allow-observed-deployment-web',
    ]);
    expect(await seriousA11yViolations(own)).toEqual([]);
    await own.context().close();
  });
});
