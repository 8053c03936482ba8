import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestAgent, type TestAgent } from '@binnacle/agent/testing';
import { startOidcTestHub } from '@binnacle/hub/testing';
import {
  type ApiServerOnly,
  apiServerOnlyUp,
  deploymentBody,
  hubRoleBindingsLock,
  testCluster,
  waitUntil,
} from '@binnacle/testkit';
import { AppsV1Api, CoreV1Api, KubeConfig, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/**
 * The fleet views through a real hub signing people in through a real IdP, with three registered clusters:
 * alpha (an agent on the shared control plane), beta (an agent on a second, bare control plane) and gamma (an
 * agent that connected once and was stopped). The same objects live in one namespace of both control planes;
 * what each person sees there is each cluster's RBAC for the forwarded IdP group: `/fleet-admins` may read
 * the namespace in both, `/fleet-readers` only in alpha. The hub's role groups are bound nowhere (the lock keeps
 * other files from binding them meanwhile).
 */
const shared = testCluster();
let second: ApiServerOnly;
let started: Awaited<ReturnType<typeof startOidcTestHub>>;
let namespace: { name: string; remove(): Promise<void> };
let releaseLock: (() => Promise<void>) | undefined;
const agents: TestAgent[] = [];
const people: Record<'ada' | 'bob', string> = { ada: '', bob: '' };
let orgId = '';
const marker = `fleet-marker-${Date.now().toString(36)}`;

interface Fleet {
  items: ({ clusterId: string; clusterName: string } & Record<string, unknown>)[];
  total: number;
  clusters: { id: string; name: string; status: string; rows: number; summary?: Record<string, number> }[];
  errors: { cluster: { id: string; name: string }; code: string; error: string }[];
}

const fleet = (path: string, cookie: string) =>
  started.t.request('GET', `/api/fleet/${path}`, { as: { cookie } });
async function fleetJson(path: string, cookie: string): Promise<Fleet> {
  const answer = await fleet(path, cookie);
  expect(answer.status, answer.body).toBe(200);
  return answer.json<Fleet>();
}

/** One namespace's worth of objects every view finds, written as the control plane's admin. */
async function seed(kubeConfig: KubeConfig, name: string, groups: string[]) {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const rbac = kubeConfig.makeApiClient(RbacAuthorizationV1Api);
  const apps = kubeConfig.makeApiClient(AppsV1Api);
  await core.createNamespacedSecret({
    namespace: name,
    body: {
      metadata: { name: 'broken-tls' },
      type: 'kubernetes.io/tls',
      data: {
        'tls.crt': Buffer.from('-----BEGIN CERTIFICATE-----\nbm90\n-----END CERTIFICATE-----\n').toString(
          'base64',
        ),
        'tls.key': Buffer.from('not a key').toString('base64'),
      },
    },
  });
  await core.createNamespacedConfigMap({ namespace: name, body: { metadata: { name: marker } } });
  const deployment = deploymentBody('fleet-web', 0);
  deployment.metadata = { name: 'fleet-web', labels: { 'helm.sh/chart': 'fleet-demo-1.2.3' } };
  await apps.createNamespacedDeployment({ namespace: name, body: deployment });
  await rbac.createNamespacedRole({
    namespace: name,
    body: {
      metadata: { name: 'fleet-reader' },
      rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['get', 'list', 'watch'] }],
    },
  });
  for (const group of groups) {
    await rbac.createNamespacedRoleBinding({
      namespace: name,
      body: {
        metadata: { name: group.slice(1) },
        subjects: [{ kind: 'Group', name: `binnacle:idp:${group}`, apiGroup: 'rbac.authorization.k8s.io' }],
        roleRef: { kind: 'Role', name: 'fleet-reader', apiGroup: 'rbac.authorization.k8s.io' },
      },
    });
  }
}

beforeAll(async () => {
  releaseLock = await shared.lock(hubRoleBindingsLock);
  const dir = await mkdtemp(join(tmpdir(), 'binnacle-fleet-'));
  [second, namespace, started] = await Promise.all([
    apiServerOnlyUp(join(dir, 'second')),
    shared.namespace('fleet'),
    startOidcTestHub({ config: { listenAddress: '127.0.0.1' } }),
  ]);
  const secondConfig = new KubeConfig();
  secondConfig.loadFromFile(second.kubeconfig);
  await secondConfig
    .makeApiClient(CoreV1Api)
    .createNamespace({ body: { metadata: { name: namespace.name } } });
  await seed(shared.kubeConfig('admin'), namespace.name, ['/fleet-admins', '/fleet-readers']);
  await seed(secondConfig, namespace.name, ['/fleet-admins']);

  const hubUrl = await started.t.hub.listen();
  started.idp.groups.set('ada', ['/fleet-admins']);
  started.idp.groups.set('bob', ['/fleet-readers']);
  people.ada = (await started.t.signInOidc(started.idp, 'ada')).cookie;
  people.bob = (await started.t.signInOidc(started.idp, 'bob')).cookie;
  orgId = (await started.t.request('GET', '/api/account', { as: { cookie: people.ada } })).json<{
    currentOrg: { id: string };
  }>().currentOrg.id;
  const ids: string[] = [];
  for (const [name, kubeconfig] of [
    ['alpha', shared.kubeconfigPath('admin')],
    ['beta', second.kubeconfig],
    ['gamma', shared.kubeconfigPath('admin')],
  ] as const) {
    const registered = (
      await started.t.request('POST', '/api/clusters', { as: { cookie: people.ada }, body: { name } })
    ).json<{ id: string; token: string }>();
    ids.push(registered.id);
    agents.push(
      await startTestAgent({ config: { kubeconfig, cloudUrl: hubUrl, clusterToken: registered.token } }),
    );
  }
  const tunnels = started.t.hub.ctx.tunnels;
  await waitUntil('three tunnels', () => Promise.resolve(ids.every((id) => tunnels.get(id))), {
    timeoutMs: 15_000,
    intervalMs: 50,
  });
  // gamma's agent stops: the hub knows the cluster, its tunnel is gone.
  await agents.pop()?.close();
  await waitUntil('gamma offline', () => Promise.resolve(!tunnels.get(ids[2] as string)), {
    timeoutMs: 15_000,
    intervalMs: 50,
  });
}, 180_000);

// The hub's clock is moved by hand (the rate-limit window), but the agents check the expiry of forwarded
// identities against their own: each test starts with the hub at the real time.
beforeEach(() => {
  started.t.clock.advance(Date.now() - started.t.clock.now().getTime());
});

afterAll(async () => {
  for (const agent of agents) await agent.close();
  await started?.close();
  await namespace?.remove();
  await second?.down();
  await releaseLock?.();
});

const ours = (row: Fleet['items'][number], kind: string, name: string) =>
  row.kind === kind && row.name === name && row.namespace === namespace.name;
const clustersOf = (rows: Fleet['items']) => [...new Set(rows.map((r) => r.clusterName))].sort();

describe('fleet views through the hub', () => {
  const views: [string, (row: Fleet['items'][number]) => boolean][] = [
    ['problems', (row) => ours(row, 'Secret', 'broken-tls') && row.source === 'certificate'],
    ['certs', (row) => ours(row, 'Secret', 'broken-tls') && row.severity === 'invalid'],
    ['audit', (row) => ours(row, 'Deployment', 'fleet-web')],
    // A package found by its chart label has no release, so no namespace of its own.
    ['packages', (row) => row.chart === 'fleet-demo' && row.version === '1.2.3'],
    [`search?q=${marker}`, (row) => ours(row, 'ConfigMap', marker)],
  ];
  for (const [path, expected] of views) {
    it(`${path.split('?')[0]}: merged rows from the two live clusters, the stopped one named in errors`, async () => {
      const answer = await fleetJson(path, people.ada);
      const rows = answer.items.filter(expected);
      expect(clustersOf(rows), JSON.stringify(answer).slice(0, 2000)).toEqual(['alpha', 'beta']);
      for (const row of rows)
        expect(row.clusterId).toBe(answer.clusters.find((c) => c.name === row.clusterName)?.id);
      expect(answer.clusters.map((c) => [c.name, c.status])).toEqual([
        ['alpha', 'ok'],
        ['beta', 'ok'],
        ['gamma', 'offline'],
      ]);
      expect(answer.errors).toEqual([
        {
          cluster: { id: answer.clusters[2]?.id, name: 'gamma' },
          code: 'cluster_offline',
          error: expect.any(String),
        },
      ]);
      expect(answer.total).toBeGreaterThanOrEqual(answer.items.length);
    });
  }

  it("a member whose group has no rights in beta sees none of beta's rows", async () => {
    for (const [path, expected] of views) {
      const answer = await fleetJson(path, people.bob);
      expect(clustersOf(answer.items), path).toEqual(['alpha']);
      expect(answer.items.filter(expected).length, path).toBeGreaterThan(0);
      expect(['ok', 'forbidden']).toContain(answer.clusters.find((c) => c.name === 'beta')?.status);
    }
  });

  it('refuses a search without words or with a query past the limit, and unknown parameters, naming them', async () => {
    for (const [query, named] of [
      ['', /\bq\b/],
      ['q=', /\bq\b/],
      [`q=${'x'.repeat(1024)}`, /\bq\b/],
      ['q=%20%20', /^q: /],
      ['q=web&cluster=alpha', /\bcluster\b/],
    ] as const) {
      const answer = await fleet(`search${query ? `?${query}` : ''}`, people.ada);
      expect(answer.status, query).toBe(400);
      expect(answer.json(), query).toEqual({
        code: 'invalid_request',
        error: expect.stringMatching(named),
      });
    }
  });

  it('counts every fan-out call of a user, fleet routes and MCP alike: the 31st in a minute is 429', async () => {
    const carol = await started.t.addUser('carol@example.com', 'viewer', orgId);
    const mcp = await started.t.request('POST', '/mcp', {
      as: { cookie: carol.cookie },
      headers: { accept: 'application/json, text/event-stream' },
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'list_namespaces', arguments: {} },
      },
    });
    expect(mcp.status, mcp.body).toBe(200);
    const routes = ['problems', 'certs', 'audit', 'packages', `search?q=${marker}`];
    for (let call = 2; call <= 30; call++) {
      const answer = await fleet(routes[call % routes.length] as string, carol.cookie);
      expect(answer.status, `call ${call}: ${answer.body}`).toBe(200);
    }
    const refused = await fleet('problems', carol.cookie);
    expect(refused.status).toBe(429);
    expect(refused.json()).toEqual({ code: 'rate_limited', error: expect.stringContaining('30') });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Someone else's bucket is their own; carol's empties as the minute passes.
    expect((await fleet('problems', people.bob)).status).toBe(200);
    started.t.clock.advance(60_000);
    expect((await fleet('problems', carol.cookie)).status).toBe(200);
  });
});
