import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { clusterBinaries, clusterNodesLock, testCluster } from '@binnacle/testkit';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';

const run = promisify(execFile);
const cluster = testCluster();
let agent: TestAgent;
let restricted: TestAgent;
let ns: { name: string; remove: () => Promise<void> };
// The node leases below hold while no other file adds Nodes.
let unlockNodes: (() => Promise<void>) | undefined;

interface List {
  kind: string;
  source: string;
  total?: number;
  items: {
    kind: string;
    metadata: {
      name: string;
      namespace?: string;
      annotations?: Record<string, string>;
      managedFields?: unknown;
    };
    data?: unknown;
    dataKeys?: string[];
    spec?: Record<string, unknown>;
  }[];
  continue?: string;
}
type ApiError = { error: string; code: string };

const yaml = (body: string, query = '') =>
  agent.request(`/api/resources/apply${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/yaml' },
    body,
  });
const configMap = (name: string, data: Record<string, string>, namespace = ns.name) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${namespace}\ndata:\n${Object.entries(
    data,
  )
    .map(([k, v]) => `  ${k}: "${v}"`)
    .join('\n')}\n`;

beforeAll(async () => {
  unlockNodes = await cluster.lock(clusterNodesLock);
  [agent, restricted, ns] = await Promise.all([
    startTestAgent(),
    startTestAgent({ identity: 'restricted' }),
    cluster.namespace('resources'),
  ]);
});
afterAll(async () => {
  await Promise.all([agent?.close(), restricted?.close(), ns?.remove()]);
  await unlockNodes?.();
});

describe('GET /api/resources/{kind}', () => {
  it('lists the seeded pods from the cache, sorted, with managedFields stripped', async () => {
    const pods = await agent.json<List>('/api/resources/pods?namespace=demo-shop');
    expect(pods.source).toBe('cache');
    expect(pods.items.map((p) => p.metadata.name.replace(/-[a-z0-9]+-[a-z0-9]+$/, ''))).toEqual([
      'checkout',
      'checkout',
      'storefront',
      'storefront',
      'storefront',
    ]);
    expect(pods.items.every((p) => p.metadata.managedFields === undefined)).toBe(true);
  });

  it('accepts every name of a kind and several namespaces', async () => {
    for (const name of ['deployments', 'deployment', 'Deployment', 'deploy', 'deployments.apps']) {
      const list = await agent.json<List>(`/api/resources/${name}?namespaces=demo-shop,demo-billing`);
      expect(list.items.map((d) => d.metadata.name)).toEqual(['billing', 'checkout', 'storefront']);
    }
  });

  it('uses group to choose between kinds of the same name, and lists uncached kinds live', async () => {
    const core = await agent.json<List>('/api/resources/events?limit=1');
    expect(core.kind).toBe('Event');
    expect(core.source).toBe('cache');
    const eventsApi = await agent.json<List & { group: string }>(
      '/api/resources/events?group=events.k8s.io&limit=1',
    );
    expect(eventsApi.group).toBe('events.k8s.io');
    expect(eventsApi.source).toBe('live');
    const leases = await agent.json<List>('/api/resources/leases?namespace=kube-node-lease');
    expect(leases.source).toBe('live');
    expect(leases.items.map((l) => l.metadata.name)).toEqual(['kwok-node-0', 'kwok-node-1', 'kwok-node-2']);
  });

  it('pages a live list across several namespaces: every object once, in namespace order', async () => {
    const namespaces = ['kube-system', 'kube-node-lease'];
    const expected: string[] = [];
    for (const namespace of namespaces) {
      const whole = await agent.json<List>(`/api/resources/leases?namespace=${namespace}`);
      expected.push(...whole.items.map((l) => `${namespace}/${l.metadata.name}`));
    }
    expect(expected.length).toBeGreaterThan(3);
    const seen: string[] = [];
    let token: string | undefined;
    for (let pages = 0; pages < 20; pages++) {
      const page = await agent.json<List & { continue?: string }>(
        `/api/resources/leases?namespaces=${namespaces.join(',')}&limit=2${token ? `&continue=${token}` : ''}`,
      );
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((l) => `${l.metadata.namespace}/${l.metadata.name}`));
      token = page.continue;
      if (!token) break;
    }
    expect(token).toBeUndefined();
    expect(seen).toEqual(expected);
    const foreign = await agent.request(
      `/api/resources/leases?namespaces=default&continue=${Buffer.from(
        JSON.stringify({ namespace: 'kube-system' }),
      ).toString('base64url')}`,
    );
    expect(foreign.status).toBe(400);
  });

  it('projects summaries: no annotations, Secrets and ConfigMaps carry keys instead of values', async () => {
    const secrets = await agent.json<List>('/api/resources/secrets?namespace=demo-shop&summary=true');
    const credentials = secrets.items.find((s) => s.metadata.name === 'storefront-credentials');
    expect(credentials?.dataKeys).toEqual(['PAYMENT_API_TOKEN', 'SESSION_KEY']);
    expect(credentials?.data).toBeUndefined();
    expect(JSON.stringify(secrets)).not.toContain(
      Buffer.from('demo-session-key-not-a-real-secret').toString('base64'),
    );
    const deployments = await agent.json<List>('/api/resources/deployments?namespace=demo-shop&summary=true');
    expect(deployments.items.every((d) => d.metadata.annotations === undefined)).toBe(true);
  });

  it('pages with limit and continue, and filters by label', async () => {
    // The seeded namespaces only: other test files add pods elsewhere while this runs.
    const seeded = ['demo-shop', 'demo-data', 'demo-ops', 'demo-billing'];
    const seededPods = `/api/resources/pods?namespaces=${seeded.join(',')}&limit=4`;
    // As many as the cluster has there: the seeded CronJob's run at 03:00 UTC adds a pod inside some runs.
    const core = cluster.kubeConfig().makeApiClient(CoreV1Api);
    const inCluster = (
      await Promise.all(seeded.map((namespace) => core.listNamespacedPod({ namespace })))
    ).reduce((sum, list) => sum + list.items.length, 0);
    const first = await agent.json<List>(seededPods);
    expect(first.items).toHaveLength(4);
    expect(inCluster).toBeGreaterThanOrEqual(12);
    expect(first.total).toBe(inCluster);
    const all: string[] = first.items.map((p) => `${p.metadata.namespace}/${p.metadata.name}`);
    let token = first.continue;
    while (token) {
      const next = await agent.json<List>(`${seededPods}&continue=${token}`);
      all.push(...next.items.map((p) => `${p.metadata.namespace}/${p.metadata.name}`));
      token = next.continue;
    }
    expect(all).toHaveLength(inCluster);
    expect(new Set(all).size).toBe(inCluster);
    const storefront = await agent.json<List>(
      '/api/resources/pods?labelSelector=app.kubernetes.io/name%3Dstorefront',
    );
    expect(storefront.items).toHaveLength(3);
  });

  it("lists a node's pods with the spec.nodeName field selector", async () => {
    type Pods = { items: { metadata: { name: string }; spec: { nodeName?: string } }[] };
    const shop = await agent.json<Pods>('/api/resources/pods?namespace=demo-shop');
    const node = shop.items[0]?.spec.nodeName ?? '';
    expect(node).not.toBe('');
    const onNode = await agent.json<Pods>(`/api/resources/pods?fieldSelector=spec.nodeName%3D${node}`);
    expect(onNode.items.length).toBeGreaterThan(0);
    expect(onNode.items.every((p) => p.spec.nodeName === node)).toBe(true);
    const shopOnNode = shop.items.filter((p) => p.spec.nodeName === node).map((p) => p.metadata.name);
    expect(
      (
        await agent.json<Pods>(
          `/api/resources/pods?namespace=demo-shop&fieldSelector=spec.nodeName%3D${node}`,
        )
      ).items.map((p) => p.metadata.name),
    ).toEqual(shopOnNode);
    expect(
      (await agent.json<Pods>('/api/resources/pods?fieldSelector=spec.nodeName%3Dno-such-node')).items,
    ).toEqual([]);
    const other = await agent.request('/api/resources/pods?fieldSelector=status.phase%3DRunning');
    expect(other.status).toBe(400);
    expect(((await other.json()) as { error: string }).error).toMatch(
      /^query parameter "fieldSelector" must match pattern/,
    );
  });

  it('answers 400 for an unknown kind, a bad limit, an unknown parameter and a bad selector', async () => {
    const cases: [string, string, string][] = [
      [
        '/api/resources/gizmos',
        'unknown_kind',
        'the cluster serves no kind "gizmos"; see /api/api-resources',
      ],
      ['/api/resources/pods?limit=10001', 'invalid_request', 'query parameter "limit" must be <= 10000'],
      ['/api/resources/pods?nmespace=x', 'invalid_request', 'unknown query parameter "nmespace"'],
      [
        '/api/resources/pods?labelSelector=%3Dx',
        'invalid_request',
        'query parameter "labelSelector" has an invalid requirement "=x"',
      ],
      [
        '/api/resources/deployments?fieldSelector=spec.nodeName%3Da',
        'invalid_request',
        'query parameter "fieldSelector" applies to pods only, not deployments',
      ],
      [
        '/api/resources/pods?continue=nonsense',
        'invalid_request',
        'query parameter "continue" is not a token from an earlier page',
      ],
    ];
    for (const [path, code, error] of cases) {
      const res = await agent.request(path);
      expect(res.status, path).toBe(400);
      expect(await res.json(), path).toEqual({ error, code });
    }
  });
});

describe('GET, PUT, DELETE /api/resources/{kind}/{namespace}/{name}', () => {
  it('reads namespaced and cluster-scoped objects (namespace "_")', async () => {
    const deployment = await agent.json<{ resource: { kind: string; metadata: { name: string } } }>(
      '/api/resources/deployments/demo-shop/storefront',
    );
    expect(deployment.resource.kind).toBe('Deployment');
    const node = await agent.json<{ resource: { kind: string; metadata: { name: string } } }>(
      '/api/resources/nodes/_/kwok-node-1',
    );
    expect(node.resource.metadata.name).toBe('kwok-node-1');
  });

  it('serves CustomResourceDefinitions whole, though the cache keeps them without their schemas (ADR 0131)', async () => {
    const name = 'certificates.cert-manager.io';
    type Crd = {
      spec: {
        versions: {
          name: string;
          schema?: { openAPIV3Schema?: object };
          additionalPrinterColumns?: unknown[];
        }[];
      };
    };
    const crds = agent.agent.ctx.cluster.resolve('customresourcedefinitions');
    const cached = agent.agent.ctx.cluster.cache.get(crds, name) as Crd | undefined;
    expect(cached?.spec.versions.map((v) => [v.name, v.schema, v.additionalPrinterColumns?.length])).toEqual([
      ['v1', undefined, 5],
    ]);
    const one = await agent.json<{ resource: Crd }>(`/api/resources/customresourcedefinitions/_/${name}`);
    expect(one.resource.spec.versions[0]?.schema?.openAPIV3Schema).toMatchObject({ type: 'object' });
    const whole = await agent.json<List>('/api/resources/customresourcedefinitions?limit=500');
    expect(whole.source).toBe('live');
    const listed = whole.items.find((item) => item.metadata.name === name) as unknown as Crd;
    expect(listed.spec.versions[0]?.schema?.openAPIV3Schema).toMatchObject({ type: 'object' });
    const summaries = await agent.json<List>(
      '/api/resources/customresourcedefinitions?summary=true&limit=500',
    );
    expect(summaries.source).toBe('cache');
    expect(summaries.items.map((item) => item.metadata.name)).toContain(name);
    const missing = await agent.request('/api/resources/customresourcedefinitions/_/nope.example.com');
    expect(missing.status).toBe(404);
  });

  it('refuses the wrong scope and answers 404 for a missing object', async () => {
    const nodeInNs = await agent.request('/api/resources/nodes/default/kwok-node-1');
    expect(nodeInNs.status).toBe(400);
    expect(((await nodeInNs.json()) as ApiError).error).toBe(
      'nodes are cluster-scoped: address them as /api/resources/nodes/_/<name>',
    );
    const podWithoutNs = await agent.request('/api/resources/pods/_/x');
    expect(podWithoutNs.status).toBe(400);
    const missing = await agent.request('/api/resources/deployments/demo-shop/nope');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'Deployment demo-shop/nope not found', code: 'not_found' });
  });

  it('creates and updates with PUT (server-side apply), refusing a body that names another object', async () => {
    const put = (name: string, body: string, query = '') =>
      agent.request(`/api/resources/configmaps/${ns.name}/${name}${query}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/yaml' },
        body,
      });
    const created = await put('settings', configMap('settings', { mode: 'a' }));
    expect(created.status).toBe(200);
    expect(((await created.json()) as { result: { action: string } }).result.action).toBe('created');
    const updated = await put('settings', configMap('settings', { mode: 'b' }));
    expect(
      (await updated.json()) as { result: { action: string }; resource: { data: Record<string, string> } },
    ).toMatchObject({
      result: { action: 'configured' },
      resource: { data: { mode: 'b' } },
    });
    const json = await agent.request(`/api/resources/configmaps/${ns.name}/settings`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'settings', namespace: ns.name },
        data: { mode: 'b' },
      }),
    });
    expect(((await json.json()) as { result: { action: string } }).result.action).toBe('unchanged');
    const other = await put('settings', configMap('other', { mode: 'c' }));
    expect(other.status).toBe(400);
    expect(((await other.json()) as ApiError).error).toBe(
      `the body names ${ns.name}/other, the path ${ns.name}/settings`,
    );
  });

  it('deletes, then answers 404', async () => {
    await yaml(configMap('doomed', { a: '1' }));
    const res = await agent.request(`/api/resources/configmaps/${ns.name}/doomed`, { method: 'DELETE' });
    expect(await res.json()).toEqual({
      kind: 'ConfigMap',
      namespace: ns.name,
      name: 'doomed',
      status: 'deleted',
      dryRun: false,
    });
    const again = await agent.request(`/api/resources/configmaps/${ns.name}/doomed`, { method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(((await again.json()) as ApiError).code).toBe('not_found');
  });
});

describe('POST /api/resources/apply', () => {
  it('applies several documents with a result each, and a dry run writes nothing', async () => {
    const body = `${configMap('one', { a: '1' })}---\n${configMap('two', { b: '2' })}`;
    const dry = await yaml(body, '?dryRun=true');
    expect(
      ((await dry.json()) as { results: { action: string; dryRun: boolean }[] }).results.map((r) => [
        r.action,
        r.dryRun,
      ]),
    ).toEqual([
      ['created', true],
      ['created', true],
    ]);
    expect((await agent.request(`/api/resources/configmaps/${ns.name}/one`)).status).toBe(404);
    const real = await yaml(body);
    expect(((await real.json()) as { results: { name: string; action: string }[] }).results).toMatchObject([
      { name: 'one', action: 'created', kind: 'ConfigMap', namespace: ns.name, index: 0 },
      { name: 'two', action: 'created', index: 1 },
    ]);
  });

  it('answers 400 naming the document for bad YAML and for a document without a name', async () => {
    const bad = await yaml(`${configMap('fine', { a: '1' })}---\nkind: [unclosed\n`);
    expect(bad.status).toBe(400);
    expect((await bad.json()) as ApiError).toMatchObject({
      code: 'invalid_yaml',
      error: expect.stringMatching(/^document 2: /),
    });
    const nameless = await yaml('apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n');
    expect(await nameless.json()).toEqual({
      error: 'document 1: missing metadata.name (generateName is not supported by apply)',
      code: 'invalid_request',
    });
  });

  it('answers 422 for an invalid object and applies none of the documents', async () => {
    const body = `${configMap('before-invalid', { a: '1' })}---\napiVersion: v1\nkind: Service\nmetadata:\n  name: broken\n  namespace: ${ns.name}\nspec:\n  ports:\n  - port: 99999\n`;
    const res = await yaml(body);
    expect(res.status).toBe(422);
    const error = (await res.json()) as ApiError & { results: unknown[] };
    expect(error.code).toBe('invalid');
    expect(error.error).toMatch(
      /^document 2 \(Service .*\/broken\) \(nothing was applied\): Service "broken" is invalid/,
    );
    expect(error.results).toHaveLength(1);
    expect((await agent.request(`/api/resources/configmaps/${ns.name}/before-invalid`)).status).toBe(404);
  });

  it('answers 409 when another field manager owns the field and force is off', async () => {
    const { kubectl } = await clusterBinaries();
    const manifest = configMap('contested', { owner: 'kubectl' });
    const child = run(kubectl, [
      '--kubeconfig',
      cluster.kubeconfigPath(),
      'apply',
      '--server-side',
      '--field-manager=someone-else',
      '-f',
      '-',
    ]);
    child.child.stdin?.end(manifest);
    await child;
    const res = await yaml(configMap('contested', { owner: 'binnacle' }), '?force=false');
    expect(res.status).toBe(409);
    expect((await res.json()) as ApiError).toMatchObject({
      code: 'conflict',
      error: expect.stringContaining('someone-else'),
    });
    const forced = await yaml(configMap('contested', { owner: 'binnacle' }));
    expect(forced.status).toBe(200);
  });

  it('answers 403 when the identity may not write', async () => {
    const res = await restricted.request('/api/resources/apply', {
      method: 'POST',
      headers: { 'content-type': 'application/yaml' },
      body: configMap('nope', { a: '1' }),
    });
    expect(res.status).toBe(403);
    expect((await res.json()) as ApiError).toMatchObject({
      code: 'forbidden',
      error: expect.stringContaining('cannot get resource "configmaps"'),
    });
  });
});

describe('catalog routes', () => {
  it('GET /api/namespaces lists the seeded namespaces', async () => {
    const { items } = await agent.json<{ items: { name: string; status: string }[] }>('/api/namespaces');
    expect(items.map((n) => n.name)).toEqual(
      expect.arrayContaining([
        'argocd',
        'demo-billing',
        'demo-data',
        'demo-ops',
        'demo-shop',
        'flux-system',
        'default',
      ]),
    );
    // Other test files delete their namespaces meanwhile (Terminating); the seeded ones stay Active.
    expect(items.filter((n) => n.name.startsWith('demo-')).every((n) => n.status === 'Active')).toBe(true);
  });

  it('GET /api/api-resources marks which kinds are cached', async () => {
    const { items } = await agent.json<{
      items: { name: string; group: string; cached: boolean; namespaced: boolean }[];
    }>('/api/api-resources');
    const find = (group: string, name: string) => items.find((r) => r.group === group && r.name === name);
    expect(find('', 'pods')).toMatchObject({ cached: true, namespaced: true });
    expect(find('argoproj.io', 'applications')).toMatchObject({ cached: true });
    expect(find('coordination.k8s.io', 'leases')).toMatchObject({ cached: false });
    expect(find('', 'nodes')).toMatchObject({ namespaced: false });
  });

  it('GET /api/resource-counts counts cached kinds, overall and per namespace', async () => {
    const all = await agent.json<{
      counts: { name: string; group: string; count: number }[];
      loading: string[];
    }>('/api/resource-counts');
    expect(all.loading).toEqual([]);
    expect(all.counts.find((c) => c.name === 'nodes')?.count).toBe(3);
    const shop = await agent.json<{ counts: { name: string; group: string; count: number }[] }>(
      '/api/resource-counts?namespace=demo-shop',
    );
    expect(shop.counts.find((c) => c.name === 'deployments')?.count).toBe(2);
    expect(shop.counts.find((c) => c.name === 'nodes')).toBeUndefined();
  });
});
