import {
  type HubbleServer,
  hubbleFlow,
  startHubbleServer,
  testCluster,
  waitUntil,
  world,
} from '@binnacle/testkit';
import { CoreV1Api, type V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';
import { json, mcpClients } from '../../testing/mcp-client.ts';
import { cached, trafficPods } from '../../testing/traffic-pods.ts';

// The Hubble stand-in serves flows between real pods: the seeded shop (read only: its policies are only proposed)
// and a namespace of this file's own, where a proposal is applied.
const core = testCluster().kubeConfig('admin').makeApiClient(CoreV1Api);
const connect = mcpClients();
let hubble: HubbleServer;
let agent: TestAgent;
let ns: { name: string; remove: () => Promise<void> };
let own: { api: V1Pod; client: V1Pod };

interface End {
  id: string;
  namespace?: string;
}
interface Flow {
  source: End;
  destination: End;
  protocol: string;
  port?: number;
  dropped?: number;
  decidedBy?: { policy: string; direction: string; ruleIndex?: number }[];
  reason?: string;
}
interface Impact {
  traffic: { available: boolean };
  judged: number;
  newlyDenied: Flow[];
  newlyAllowed: Flow[];
  unjudged: Flow[];
  matrices: { namespace: string; workloads: string[]; cells: { before: boolean; after: boolean }[][] }[];
}
interface Proposal {
  yaml: string;
  policies: { metadata: { name: string } }[];
  skipped: (Flow & { reason: string })[];
  impact: Impact;
}
interface Pair {
  source: End;
  destination: End;
  ports: { protocol: string; port?: number }[];
}

const running = async (namespace: string, selector: string) =>
  (await core.listNamespacedPod({ namespace, labelSelector: selector })).items.filter(
    (p) => p.status?.phase === 'Running' && p.status.podIP,
  );
const key = (f: Flow) => `${f.source.id}→${f.destination.id} ${f.protocol}/${f.port ?? ''}`;
const impact = (body: Record<string, unknown>) => agent.post('/api/network-policies/impact', body);
const denyIngress = (namespace: string) =>
  `apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: default-deny\n  namespace: ${namespace}\nspec:\n  podSelector: {}\n  policyTypes: [Ingress]\n`;

beforeAll(async () => {
  hubble = await startHubbleServer();
  [agent, ns] = await Promise.all([
    startTestAgent({ config: { hubbleAddress: hubble.address } }),
    testCluster().namespace('whatif'),
  ]);
  const [storefront, checkout, postgres, pods] = await Promise.all([
    running('demo-shop', 'app.kubernetes.io/name=storefront'),
    running('demo-shop', 'app.kubernetes.io/name=checkout'),
    running('demo-data', 'app.kubernetes.io/name=postgres'),
    trafficPods(ns.name),
  ]);
  own = pods;
  const [front, back, db] = [storefront[0], checkout[0], postgres[0]];
  if (!front || !back || !db) throw new Error('the seeded shop and postgres pods are not running');
  const time = Date.now() - 20_000;
  hubble.inject(
    hubbleFlow(world('203.0.113.10'), front, { time, syn: true }),
    hubbleFlow(front, back, { time, syn: true }),
    hubbleFlow(back, db, { time, port: 5432, syn: true }),
    hubbleFlow(own.client, own.api, { time, syn: true }),
    hubbleFlow(own.client, own.api, { time, port: 5432, syn: true, verdict: 'DROPPED' }),
  );
  await cached(agent, [front, back, db, own.api, own.client]);
});

afterAll(async () => {
  await Promise.all([agent?.close(), ns?.remove(), hubble?.close()]);
});

/** The observed flows into a namespace, a key per pair and port, as the traffic route gives them. */
async function flowsInto(namespace: string): Promise<string[]> {
  const flows = await agent.json<{ pairs: Pair[] }>(`/api/traffic/flows?namespace=${namespace}`);
  return flows.pairs
    .filter((p) => p.destination.namespace === namespace)
    .flatMap((p) => p.ports.map((port) => key({ ...p, ...port })))
    .sort();
}

describe('POST /api/network-policies/impact', () => {
  it('a default-deny for demo-shop newly denies the observed flows into demo-shop that no other policy allows', async () => {
    const into = await flowsInto('demo-shop');
    expect(into).toEqual(
      [
        'deployment/demo-shop/storefront→deployment/demo-shop/checkout TCP/8080',
        'external/203.0.113.10→deployment/demo-shop/storefront TCP/8080',
      ].sort(),
    );
    const res = await impact({ yaml: denyIngress('demo-shop'), since: '5m' });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as Impact;
    // The seeded checkout-from-storefront still lets storefront call checkout: policies add up.
    expect(answer.newlyDenied.map(key)).toEqual([
      'external/203.0.113.10→deployment/demo-shop/storefront TCP/8080',
    ]);
    expect(answer.newlyDenied[0]).toMatchObject({
      decidedBy: [{ policy: 'demo-shop/default-deny', direction: 'ingress' }],
      reason: expect.stringContaining('isolated by demo-shop/default-deny'),
    });
    expect(answer.newlyAllowed).toEqual([]);
    const matrix = answer.matrices.find((m) => m.namespace === 'demo-shop');
    const [s, c] = ['deployment/demo-shop/storefront', 'deployment/demo-shop/checkout'].map((id) =>
      matrix?.workloads.indexOf(id),
    ) as [number, number];
    expect(matrix?.cells[s]?.[c]).toEqual({ before: true, after: true });
    expect(matrix?.cells[c]?.[s]).toEqual({ before: true, after: false });
  });

  it('with that policy deleted too, the default-deny newly denies exactly the observed flows into demo-shop', async () => {
    const answer = await (
      await impact({ yaml: denyIngress('demo-shop'), delete: ['demo-shop/checkout-from-storefront'] })
    ).json();
    expect((answer as Impact).newlyDenied.map(key).sort()).toEqual(await flowsInto('demo-shop'));
  });

  it('refuses bad input with a 4xx naming it, and changes nothing', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{}, 400, 'the change is empty'],
      [
        { yaml: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x, namespace: y}\n' },
        400,
        'not a networking.k8s.io/v1 NetworkPolicy',
      ],
      [
        { yaml: denyIngress('demo-shop').replace('  namespace: demo-shop\n', '') },
        400,
        'metadata.namespace is required',
      ],
      [
        { yaml: `${denyIngress('demo-shop')}  ingress: [{ports: [{port: 70000}]}]\n` },
        400,
        'spec.ingress[0].ports[0].port',
      ],
      [{ yaml: 'a: [' }, 400, 'yaml document 1'],
      [{ yaml: Array.from({ length: 51 }, () => denyIngress('demo-shop')).join('---\n') }, 400, 'at most 50'],
      [{ yaml: denyIngress('demo-shop'), since: '2h' }, 400, 'since'],
      [{ yaml: '# nothing\n' }, 400, 'the change is empty'],
      [{ delete: ['demo-shop/none-such'] }, 404, 'demo-shop/none-such not found'],
      [{ delete: ['no-slash'] }, 400, 'delete'],
    ];
    for (const [body, status, words] of cases) {
      const res = await impact(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(await res.json()).toMatchObject({
        code: expect.any(String),
        error: expect.stringContaining(words),
      });
    }
  });
});

describe('POST /api/network-policies/propose', () => {
  let proposal: Proposal;

  it('proposes a policy per workload that allows exactly the flows that went through', async () => {
    const res = await agent.post('/api/network-policies/propose', { namespace: ns.name });
    expect(res.status).toBe(200);
    proposal = (await res.json()) as Proposal;
    expect(proposal.policies.map((p) => p.metadata.name)).toEqual([
      'allow-observed-deployment-api',
      'allow-observed-pod-client',
    ]);
    expect(proposal.skipped.map(key)).toEqual([`pod/${ns.name}/client→deployment/${ns.name}/api TCP/5432`]);
    // Only the dropped attempt is newly denied: it never went through.
    expect(proposal.impact.newlyDenied.map(key)).toEqual([
      `pod/${ns.name}/client→deployment/${ns.name}/api TCP/5432`,
    ]);
  });

  it('applied as the caller, it lets every observed flow through and denies one never observed', async () => {
    const applied = await agent.request('/api/resources/apply', {
      method: 'POST',
      headers: { 'content-type': 'application/yaml' },
      body: proposal.yaml,
    });
    expect(applied.status).toBe(200);
    const evaluate = (from: string, to: string, port: number) =>
      agent.json<{ allowed: boolean; ingress: { policies: string[] } }>(
        `/api/network-policies/evaluate?source=pod/${ns.name}/${from}&destination=pod/${ns.name}/${to}&port=${port}`,
      );
    const [client, api] = [own.client.metadata?.name as string, own.api.metadata?.name as string];
    await waitUntil(
      'the agent to see the applied policies',
      async () => (await evaluate(client, api, 8080)).ingress.policies.length > 0,
      {
        timeoutMs: 20_000,
      },
    );
    expect((await evaluate(client, api, 8080)).allowed).toBe(true);
    expect((await evaluate(api, client, 8080)).allowed).toBe(false);
    expect((await evaluate(client, api, 5432)).allowed).toBe(false);
    // Deleting both lets the dropped attempt through again; the observed flow stays allowed.
    const undo = (await (
      await impact({ delete: proposal.policies.map((p) => `${ns.name}/${p.metadata.name}`) })
    ).json()) as Impact;
    expect(undo.newlyAllowed.map(key)).toEqual([`pod/${ns.name}/client→deployment/${ns.name}/api TCP/5432`]);
    expect(undo.newlyDenied).toEqual([]);
  });

  it('is the network_policy_impact and propose_network_policies MCP tools', async () => {
    const client = await connect(agent);
    const proposed = await json<Proposal>(client, 'propose_network_policies', { namespace: ns.name });
    expect(proposed.yaml).toBe(proposal.yaml);
    const answer = await json<Impact>(client, 'network_policy_impact', { yaml: denyIngress('demo-shop') });
    expect(answer.newlyDenied.map(key)).toEqual([
      'external/203.0.113.10→deployment/demo-shop/storefront TCP/8080',
    ]);
  });
});
