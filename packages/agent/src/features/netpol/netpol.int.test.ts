import { identities, testCluster, waitUntil } from '@binnacle/testkit';
import { CoreV1Api, NetworkingV1Api } from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { agentsAndNamespace } from '../../testing/index.ts';

// Three pods and one policy in the local control plane: the server takes port 80 from the client only.
const cluster = testCluster();
const kc = cluster.kubeConfig('admin');
const fixture = agentsAndNamespace('netpol');

const pod = (name: string, ports: { name: string; containerPort: number }[] = []) => ({
  metadata: { name, labels: { app: name } },
  spec: { containers: [{ name, image: `${name}:1`, ports }] },
});

beforeAll(async () => {
  const namespace = fixture.ns.name;
  const core = kc.makeApiClient(CoreV1Api);
  for (const body of [pod('server', [{ name: 'http', containerPort: 80 }]), pod('client'), pod('other')])
    await core.createNamespacedPod({ namespace, body });
  await kc.makeApiClient(NetworkingV1Api).createNamespacedNetworkPolicy({
    namespace,
    body: {
      metadata: { name: 'server-from-client' },
      spec: {
        podSelector: { matchLabels: { app: 'server' } },
        ingress: [
          { _from: [{ podSelector: { matchLabels: { app: 'client' } } }], ports: [{ port: 'http' }] },
        ],
      },
    },
  });
  await waitUntil(
    'the pods and the policy in the agent',
    async () => {
      const res = await fixture.agent.request(`/api/network-policies/evaluate?matrix=${namespace}&port=80`);
      if (res.status !== 200) return false;
      const matrix = (await res.json()) as { pods: string[]; cells: { policies: string[] }[][] };
      return matrix.pods.length === 3 && matrix.cells.flat().some((c) => c.policies.length > 0);
    },
    { timeoutMs: 20_000, intervalMs: 250 },
  );
});

const evaluate = (query: string) =>
  fixture.agent.request(`/api/network-policies/evaluate?${query.replaceAll('NS', fixture.ns.name)}`);

describe('GET /api/network-policies/evaluate', () => {
  it('allows the client to the server on port 80 by the policy rule that says so', async () => {
    const res = await evaluate('source=pod/NS/client&destination=pod/NS/server&port=80');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      allowed: true,
      egress: { isolated: false, allowed: true },
      ingress: {
        isolated: true,
        allowed: true,
        policies: [`${fixture.ns.name}/server-from-client`],
        decidedBy: [
          expect.objectContaining({ policy: `${fixture.ns.name}/server-from-client`, ruleIndex: 0 }),
        ],
      },
    });
  });

  it('denies another pod, another port and an outside address; the server is open to nobody else', async () => {
    for (const query of [
      'source=pod/NS/other&destination=pod/NS/server&port=80',
      'source=pod/NS/client&destination=pod/NS/server&port=81',
      'source=ip/203.0.113.9&destination=pod/NS/server&port=80',
      'source=ip/203.0.113.0/24&destination=pod/NS/server&port=80',
      'sourceNamespace=NS&sourceLabels=app=stranger&destination=pod/NS/server&port=80',
    ]) {
      const res = await evaluate(query);
      expect(res.status, query).toBe(200);
      expect(await res.json(), query).toMatchObject({
        allowed: false,
        ingress: { isolated: true, decidedBy: [] },
      });
    }
    const back = await evaluate('source=pod/NS/server&destination=pod/NS/client&port=80');
    expect(await back.json()).toMatchObject({ allowed: true, ingress: { isolated: false } });
  });

  it('answers the matrix of the namespace', async () => {
    const res = await evaluate('matrix=NS&port=80');
    const matrix = (await res.json()) as { pods: string[]; cells: { allowed: boolean }[][] };
    const at = (from: string, to: string) =>
      matrix.cells[matrix.pods.indexOf(`${fixture.ns.name}/${from}`)]?.[
        matrix.pods.indexOf(`${fixture.ns.name}/${to}`)
      ]?.allowed;
    expect([
      at('client', 'server'),
      at('other', 'server'),
      at('server', 'other'),
      at('other', 'client'),
    ]).toEqual([true, false, true, true]);
  });

  it('refuses malformed input with 400 naming the field, a missing pod with 404, the restricted identity with 403', async () => {
    for (const [query, field] of [
      ['source=ip/300.1.1.1&destination=pod/NS/server', 'source'],
      ['source=node/x&destination=pod/NS/server', 'source'],
      ['sourceNamespace=NS&sourceLabels=app&destination=pod/NS/server', 'sourceLabels'],
      ['source=pod/NS/client', 'destination'],
      ['source=ip/203.0.113.0/33&destination=pod/NS/server&port=80', 'source.ip'],
      ['source=ip/203.0.113.0/24&destination=pod/NS/server', 'port'],
    ] as const) {
      const res = await evaluate(query);
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { error: string }).error, query).toContain(field);
    }
    expect((await evaluate('source=pod/NS/nowhere&destination=pod/NS/server')).status).toBe(404);
    const refused = await fixture.restricted.request(
      `/api/network-policies/evaluate?matrix=${fixture.ns.name}`,
    );
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toContain(identities.restricted.user);
  });
});
