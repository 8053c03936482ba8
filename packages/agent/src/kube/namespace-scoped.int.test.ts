import { readFile } from 'node:fs/promises';
import {
  auditedNamespace,
  deploymentBody,
  docsScreenshot,
  launchBrowser,
  openPage,
  seriousA11yViolations,
  testCluster,
  waitUntil,
} from '@binnacle/testkit';
import { AppsV1Api, CoreV1Api, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../testing/index.ts';

/**
 * Namespace-scoped mode (ADR 0121) against the real API server: ServiceAccounts in the audited namespace, each
 * bound to `view` in two namespaces only, run agents; the API server's audit log (which records that
 * namespace's ServiceAccounts) shows every LIST and WATCH they sent.
 */
const cluster = testCluster();
const admin = cluster.kubeConfig('admin');
const core = admin.makeApiClient(CoreV1Api);
const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
const suffix = process.pid.toString(36);
const configured = `scoped-${suffix}`;
const discovering = `discovering-${suffix}`;
const namespaceLister = `binnacle-list-namespaces-${suffix}`;
const namespaces: { name: string; remove: () => Promise<void> }[] = [];
const agents: TestAgent[] = [];

interface AuditEvent {
  verb: string;
  user: { username: string };
  objectRef?: { resource?: string; namespace?: string; apiGroup?: string };
  responseStatus?: { code?: number };
  requestURI: string;
}

/** Every LIST and WATCH a ServiceAccount of the audited namespace sent, as the API server logged them. */
async function listsAndWatches(serviceAccount: string): Promise<AuditEvent[]> {
  const user = `system:serviceaccount:${auditedNamespace}:${serviceAccount}`;
  const text = await readFile(cluster.state.auditLog, 'utf8');
  return text
    .split('\n')
    .filter((line) => line.includes(user))
    .map((line) => JSON.parse(line) as AuditEvent)
    .filter((event) => event.user.username === user && (event.verb === 'list' || event.verb === 'watch'));
}

const ns = (index: number) => namespaces[index]?.name ?? '';

async function serviceAccount(name: string) {
  await core.createNamespacedServiceAccount({ namespace: auditedNamespace, body: { metadata: { name } } });
  const subject = { kind: 'ServiceAccount', name, namespace: auditedNamespace };
  for (const { name: namespace } of namespaces)
    await rbac.createNamespacedRoleBinding({
      namespace,
      body: {
        metadata: { name: `view-${name}` },
        subjects: [subject],
        roleRef: { kind: 'ClusterRole', name: 'view', apiGroup: 'rbac.authorization.k8s.io' },
      },
    });
  return cluster.serviceAccountKubeconfig(auditedNamespace, name);
}

beforeAll(async () => {
  await core.createNamespace({ body: { metadata: { name: auditedNamespace } } }).catch(() => undefined);
  namespaces.push(await cluster.namespace('scoped-a'), await cluster.namespace('scoped-b'));
  const apps = admin.makeApiClient(AppsV1Api);
  for (const { name } of namespaces) {
    await apps.createNamespacedDeployment({ namespace: name, body: deploymentBody('web', 2) });
    await core.createNamespacedService({
      namespace: name,
      body: { metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } },
    });
  }
  const [scopedConfig, discoveringConfig] = await Promise.all([
    serviceAccount(configured),
    serviceAccount(discovering),
  ]);
  // The discovering one may also list namespaces: that is how it finds the two it may read.
  await rbac.createClusterRole({
    body: {
      metadata: { name: namespaceLister },
      rules: [{ apiGroups: [''], resources: ['namespaces'], verbs: ['list'] }],
    },
  });
  await rbac.createClusterRoleBinding({
    body: {
      metadata: { name: namespaceLister },
      subjects: [{ kind: 'ServiceAccount', name: discovering, namespace: auditedNamespace }],
      roleRef: { kind: 'ClusterRole', name: namespaceLister, apiGroup: 'rbac.authorization.k8s.io' },
    },
  });
  agents.push(
    await startTestAgent({ config: { kubeconfig: scopedConfig, namespace: `${ns(0)},${ns(1)}` } }),
    await startTestAgent({ config: { kubeconfig: discoveringConfig } }),
  );
}, 120_000);
afterAll(async () => {
  await Promise.all(agents.map((a) => a.close()));
  await rbac.deleteClusterRoleBinding({ name: namespaceLister }).catch(() => undefined);
  await rbac.deleteClusterRole({ name: namespaceLister }).catch(() => undefined);
  for (const name of [configured, discovering])
    await core.deleteNamespacedServiceAccount({ namespace: auditedNamespace, name }).catch(() => undefined);
  await Promise.all(namespaces.map((n) => n.remove()));
});

/** What the agent's pages read: the dashboard, the pods table and the topology of each namespace. */
async function pagesWork(agent: TestAgent) {
  await waitUntil(
    'both Deployments with their 4 pods',
    async () => {
      const { counts } = await agent.json<{
        counts: { deployments: { total: number }; pods: { running: number }; namespaces: number };
      }>('/api/dashboard');
      return counts.deployments.total === 2 && counts.pods.running === 4 && counts.namespaces === 2;
    },
    { timeoutMs: 30_000 },
  );
  const { items } = await agent.json<{ items: { name: string }[] }>('/api/namespaces');
  expect(items.map((n) => n.name).sort()).toEqual([ns(0), ns(1)].sort());
  for (const namespace of [ns(0), ns(1)]) {
    const table = await agent.json<{ total: number }>(`/api/tables/pods?namespace=${namespace}`);
    expect(table.total).toBe(2);
    const topology = await agent.json<{ nodes: { kind: string; name: string }[] }>(
      `/api/topology?namespace=${namespace}`,
    );
    expect(topology.nodes.map((n) => `${n.kind}/${n.name}`)).toEqual(
      expect.arrayContaining(['Deployment/web', 'Service/web']),
    );
  }
}

describe('namespace-scoped mode', () => {
  it('with --namespace a,b: dashboard, tables and topology work, and no LIST or WATCH leaves the two', async () => {
    const [agent] = agents;
    if (!agent) throw new Error('no agent');
    await pagesWork(agent);
    const requests = await listsAndWatches(configured);
    expect(requests.length).toBeGreaterThan(10);
    const outside = requests.filter(
      (e) => !e.objectRef?.namespace || ![ns(0), ns(1)].includes(e.objectRef.namespace),
    );
    expect(outside.map((e) => `${e.verb} ${e.requestURI}`)).toEqual([]);
    expect(requests.filter((e) => e.responseStatus?.code === 403)).toEqual([]);
  });

  it('without --namespace, an identity that may not list pods across the cluster watches the namespaces it may read', async () => {
    const agent = agents[1];
    if (!agent) throw new Error('no agent');
    await pagesWork(agent);
    const requests = await listsAndWatches(discovering);
    // Across the cluster it lists only what it may: the namespaces, to find its own.
    const clusterWide = requests.filter((e) => !e.objectRef?.namespace);
    expect([...new Set(clusterWide.map((e) => e.objectRef?.resource))]).toEqual(['namespaces']);
    const namespaced = requests.filter((e) => e.objectRef?.namespace);
    expect([...new Set(namespaced.map((e) => e.objectRef?.namespace))].sort()).toEqual([ns(0), ns(1)].sort());
    expect(requests.filter((e) => e.responseStatus?.code === 403)).toEqual([]);
  });

  it('in the web UI: the namespace picker offers the two, and the pods table shows their pods', async () => {
    const [agent] = agents;
    if (!agent) throw new Error('no agent');
    const browser = await launchBrowser();
    try {
      const page = await openPage(browser, `${agent.url}/resources/pods`);
      const pods = page.getByRole('region', { name: 'Pod objects' });
      await expect.poll(() => pods.getByRole('row').getByRole('link').count(), { timeout: 20_000 }).toBe(4);
      const picker = page.getByRole('banner').getByLabel('Namespace');
      const offered = await picker.locator('option').allTextContents();
      expect(offered.filter((o) => o !== 'All namespaces').sort()).toEqual([ns(0), ns(1)].sort());
      expect(await page.getByText('You may not list pods').count()).toBe(0);
      await picker.selectOption(ns(1));
      await expect.poll(() => pods.getByRole('row').getByRole('link').count()).toBe(2);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await docsScreenshot(page, 'namespace-scoped');
    } finally {
      await browser.close();
    }
  });
});
