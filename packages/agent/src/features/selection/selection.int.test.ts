import { testCluster } from '@binnacle/testkit';
import { AppsV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';
import { json, mcpClients, readUntil } from '../../testing/mcp-client.ts';
import { sendFrom } from '../../testing/proxy-request.ts';
import { bindInNamespace } from '../../testing/rbac.ts';

/**
 * POST /api/selection-impact and the selection_impact tool against the test control plane: the seeded storefront's
 * pod template relabelled (a change the API server refuses, since a Deployment's selector is immutable), a
 * Deployment of this file's own whose template the API server accepts, a Service's selector, and the refusals.
 */
const cluster = testCluster();
const apps = cluster.kubeConfig('admin').makeApiClient(AppsV1Api);
const connect = mcpClients();
const app = 'app.kubernetes.io/name';
let agent: TestAgent;
let proxied: TestAgent;
let ns: { name: string; remove: () => Promise<void> };

interface Sample {
  count: number;
  pods: { namespace: string; name: string }[];
}
interface Change {
  kind: string;
  namespace: string;
  name: string;
  relation: string;
  before: number;
  after: number;
  gained: Sample;
  lost: Sample;
}
interface Impact {
  object: { kind: string; namespace?: string; name: string };
  dryRun: { accepted: boolean; action?: string; error?: string };
  relabelled: Sample;
  changes: Change[];
  mismatch?: string;
}

const impact = async (yaml: string) => {
  const res = await agent.post('/api/selection-impact', { yaml });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Impact;
};
const summary = (answer: Impact) =>
  answer.changes.map((c) => `${c.kind} ${c.namespace}/${c.name} ${c.relation} ${c.before}→${c.after}`);
const names = (sample: Sample) => sample.pods.map((p) => p.name).sort();

// biome-ignore lint/suspicious/noExplicitAny: a test edits fields of objects it reads as JSON.
type Editable = { metadata: Record<string, unknown>; spec: Record<string, any>; status?: unknown };

/** The object as the agent serves it, without what an apply may not carry. */
async function editable(kind: string, namespace: string, name: string): Promise<Editable> {
  const { resource } = await agent.json<{ resource: Editable }>(
    `/api/resources/${kind}/${namespace}/${name}`,
  );
  const { status: _, ...object } = resource;
  const { managedFields: __, ...metadata } = object.metadata;
  return { ...object, metadata };
}

const web = (namespace: string) => `
apiVersion: apps/v1
kind: Deployment
metadata: { name: web, namespace: ${namespace} }
spec:
  replicas: 2
  selector: { matchLabels: { ${app}: web } }
  template:
    metadata: { labels: { ${app}: web, tier: front } }
    spec: { containers: [{ name: web, image: nginx:1.27.3 }] }
---
apiVersion: v1
kind: Service
metadata: { name: front, namespace: ${namespace} }
spec: { selector: { tier: front }, ports: [{ port: 80 }] }
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: { name: front, namespace: ${namespace} }
spec: { minAvailable: 1, selector: { matchLabels: { tier: front } } }
`;

beforeAll(async () => {
  [agent, proxied, ns] = await Promise.all([
    startTestAgent(),
    startTestAgent({ config: { authMode: 'proxy', authProxyAddresses: '127.0.0.2' } }),
    cluster.namespace('selection'),
  ]);
  const applied = await agent.request('/api/resources/apply', {
    method: 'POST',
    headers: { 'content-type': 'application/yaml' },
    body: web(ns.name),
  });
  expect(applied.status, await applied.clone().text()).toBe(200);
  await readUntil(
    'the web pods in the cache',
    () =>
      agent.json<{ items: unknown[] }>(`/api/resources/pods?namespace=${ns.name}&labelSelector=tier%3Dfront`),
    (list) => list.items.length === 2,
  );
}, 120_000);
afterAll(async () => {
  await Promise.all([agent?.close(), proxied?.close()]);
  await ns?.remove();
});

describe('POST /api/selection-impact', () => {
  it("lists the Service, PDB and NetworkPolicy that lose storefront's pods when its template's app label changes", async () => {
    const storefront = await editable('deployments', 'demo-shop', 'storefront');
    const generation = storefront.metadata.generation;
    const pods = await agent.json<{ items: { metadata: { name: string } }[] }>(
      `/api/resources/pods?namespace=demo-shop&labelSelector=${encodeURIComponent(`${app}=storefront`)}`,
    );
    const count = pods.items.length;
    expect(count).toBeGreaterThan(0);
    storefront.spec.template.metadata.labels[app] = 'shopfront';
    const answer = await impact(JSON.stringify(storefront));
    // A Deployment's selector is immutable and must match its template: the API server refuses the edit, and says so.
    expect(answer.dryRun).toMatchObject({ accepted: false, error: expect.stringContaining('selector') });
    expect(answer.mismatch).toContain('Deployment storefront');
    expect(answer.relabelled.count).toBe(count);
    const lost = `${count}→0`;
    expect(summary(answer)).toEqual([
      `Deployment demo-shop/storefront workload ${lost}`,
      `HorizontalPodAutoscaler demo-shop/storefront autoscaler ${lost}`,
      `NetworkPolicy demo-shop/checkout-from-storefront policy-ingress-peer ${lost}`,
      `PodDisruptionBudget demo-shop/storefront disruption-budget ${lost}`,
      `Service demo-shop/storefront service ${lost}`,
    ]);
    for (const change of answer.changes) {
      expect(change.gained.count).toBe(0);
      expect(names(change.lost)).toEqual(pods.items.map((p) => p.metadata.name).sort());
    }
    // Nothing was written.
    const after = await apps.readNamespacedDeployment({ name: 'storefront', namespace: 'demo-shop' });
    expect(after.metadata?.generation).toBe(generation);
    expect(after.spec?.template.metadata?.labels?.[app]).toBe('storefront');
  });

  it("judges a template the API server accepts by its dry run: the rollout's pods leave what selected the old label", async () => {
    const deployment = await editable('deployments', ns.name, 'web');
    deployment.spec.template.metadata.labels.tier = 'back';
    const answer = await impact(JSON.stringify(deployment));
    expect(answer.dryRun).toEqual({ accepted: true, action: 'configured' });
    expect(answer.mismatch).toBeUndefined();
    expect(summary(answer)).toEqual([
      `PodDisruptionBudget ${ns.name}/front disruption-budget 2→0`,
      `Service ${ns.name}/front service 2→0`,
    ]);
    const live = await apps.readNamespacedDeployment({ name: 'web', namespace: ns.name });
    expect(live.spec?.template.metadata?.labels?.tier).toBe('front');
  });

  it("reports what an edited Service's selector gains and loses", async () => {
    const service = await editable('services', 'demo-shop', 'storefront');
    service.spec.selector = { [app]: 'checkout' };
    const answer = await impact(JSON.stringify(service));
    expect(answer.dryRun).toEqual({ accepted: true, action: 'configured' });
    expect(answer.relabelled.count).toBe(0);
    expect(answer.changes).toHaveLength(1);
    const [change] = answer.changes as [Change];
    expect(change).toMatchObject({
      kind: 'Service',
      name: 'storefront',
      relation: 'service',
      after: change.gained.count,
    });
    expect(change.gained.pods.every((p) => p.name.startsWith('checkout-'))).toBe(true);
    expect(change.lost.pods.every((p) => p.name.startsWith('storefront-'))).toBe(true);
  });

  it('refuses what it cannot judge with 400 {error, code}', async () => {
    const cases: [unknown, string][] = [
      [{ yaml: 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: c }\n' }, 'invalid_request'],
      [{ yaml: web(ns.name) }, 'invalid_request'],
      [{ yaml: 'kind: [' }, 'invalid_yaml'],
      [{ yaml: '' }, 'invalid_request'],
      [{ yaml: 'a: 1', extra: true }, 'invalid_request'],
      [{ yaml: 'a: 1', namespace: 'Not_A_Namespace' }, 'invalid_request'],
    ];
    for (const [body, code] of cases) {
      const res = await agent.post('/api/selection-impact', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toMatchObject({ code, error: expect.any(String) });
    }
  });

  it('asks the dry run as the caller: a viewer may not, an editor sees only its namespaces', async () => {
    const as = (group: string) => ({
      'x-forwarded-user': `${group}@example.com`,
      'x-forwarded-groups': group,
    });
    const unbindViewer = await bindInNamespace(ns.name, { kind: 'Group', name: 'selection-viewers' });
    const unbindEditor = await bindInNamespace(ns.name, { kind: 'Group', name: 'selection-editors' }, 'edit');
    try {
      const deployment = await editable('deployments', ns.name, 'web');
      deployment.spec.template.metadata.labels.tier = 'back';
      const body = { json: { yaml: JSON.stringify(deployment) } };
      const viewer = await sendFrom(
        proxied,
        '/api/selection-impact',
        as('selection-viewers'),
        '127.0.0.2',
        'POST',
        body,
      );
      expect(viewer.status).toBe(403);
      expect(viewer.body).toMatchObject({ code: 'forbidden' });
      const editor = await readUntil(
        'the editor binding in force',
        () => sendFrom(proxied, '/api/selection-impact', as('selection-editors'), '127.0.0.2', 'POST', body),
        (answer) => answer.status === 200,
      );
      const changes = (editor.body as unknown as Impact).changes;
      expect(changes.map((c) => `${c.kind} ${c.name}`)).toEqual([
        'PodDisruptionBudget front',
        'Service front',
      ]);
    } finally {
      await Promise.all([unbindViewer(), unbindEditor()]);
    }
  });
});

describe('the selection_impact tool', () => {
  it('answers on the read-only endpoint, whose client lets only the dry run through', async () => {
    const client = await connect(agent, '/mcp-readonly');
    const storefront = await editable('deployments', 'demo-shop', 'storefront');
    storefront.spec.template.metadata.labels[app] = 'shopfront';
    const answer = await json<Impact>(client, 'selection_impact', { yaml: JSON.stringify(storefront) });
    expect(answer.changes.map((c) => c.kind)).toEqual(
      expect.arrayContaining(['Service', 'PodDisruptionBudget', 'NetworkPolicy']),
    );
  });
});
