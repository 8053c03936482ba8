import { testCluster, waitUntil } from '@binnacle/testkit';
import {
  AppsV1Api,
  CoreV1Api,
  type V1Deployment,
  type V1DeploymentStrategy,
  type V1EnvVar,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';
import { json, mcpClients } from '../../testing/mcp-client.ts';

/**
 * GET /api/compare and the compare_objects tool against the test control plane: two Deployments the API server
 * defaulted itself, a Secret pair, and one Deployment against itself before an update (time travel).
 */
const cluster = testCluster();
const admin = cluster.kubeConfig('admin');
const apps = admin.makeApiClient(AppsV1Api);
const core = admin.makeApiClient(CoreV1Api);
const connect = mcpClients();
let agent: TestAgent;
let restricted: TestAgent;
let ns: { name: string; remove: () => Promise<void> };

interface Difference {
  path: string;
  left?: unknown;
  right?: unknown;
  folded?: string;
}
interface Comparison {
  kind: string;
  left: { namespace: string; name: string; resourceVersion: string; at?: string };
  right: { namespace: string; name: string; resourceVersion: string; at?: string };
  identical: boolean;
  differences: Difference[];
  counts: Record<string, number>;
  equal: number;
}

const shownOf = (c: Comparison) => c.differences.filter((d) => !d.folded);
const foldedPaths = (c: Comparison, reason: string) =>
  c.differences.filter((d) => d.folded === reason).map((d) => d.path);

/** A Deployment whose one container is named `checkout` in both, so their containers pair up. */
function checkout(
  name: string,
  spec: { replicas: number; image: string; strategy?: V1DeploymentStrategy; env?: V1EnvVar[] },
): V1Deployment {
  return {
    metadata: { name },
    spec: {
      replicas: spec.replicas,
      ...(spec.strategy ? { strategy: spec.strategy } : {}),
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [{ name: 'checkout', image: spec.image, ...(spec.env ? { env: spec.env } : {}) }],
        },
      },
    },
  };
}

beforeAll(async () => {
  [agent, restricted, ns] = await Promise.all([
    startTestAgent(),
    startTestAgent({ identity: 'restricted' }),
    cluster.namespace('compare'),
  ]);
  // Staging recreates its pod; production rolls, which the API server completes with maxSurge/maxUnavailable.
  await apps.createNamespacedDeployment({
    namespace: ns.name,
    body: checkout('checkout-staging', {
      replicas: 1,
      image: 'shop/checkout:1.4',
      strategy: { type: 'Recreate' },
    }),
  });
  await apps.createNamespacedDeployment({
    namespace: ns.name,
    body: checkout('checkout-production', {
      replicas: 2,
      image: 'shop/checkout:1.5',
      env: [{ name: 'REGION', value: 'eu' }],
    }),
  });
  for (const [name, value] of [
    ['db-staging', 'c3RhZ2luZy1wYXNz'],
    ['db-production', 'cHJvZHVjdGlvbi1wYXNzd29yZA=='],
  ] as const)
    await core.createNamespacedSecret({
      namespace: ns.name,
      body: { metadata: { name }, data: { password: value, user: 'YXBw' } },
    });
  await waitUntil(
    'the agent caches both Deployments with a status',
    async () => {
      const res = await agent.request(`/api/resources/deployments?namespace=${ns.name}`);
      const { items } = (await res.json()) as { items: { status?: { replicas?: number } }[] };
      return items.length === 2 && items.every((d) => (d.status?.replicas ?? 0) > 0);
    },
    { timeoutMs: 30_000 },
  );
});
afterAll(async () => {
  await Promise.all([agent?.close(), restricted?.close(), ns?.remove()]);
});

describe('GET /api/compare', () => {
  it('shows the image, replicas, env and strategy, and folds status, server-set fields and defaults', async () => {
    const answer = await agent.json<Comparison>(
      `/api/compare?kind=deploy&left=${ns.name}/checkout-staging&right=${ns.name}/checkout-production`,
    );
    expect(answer).toMatchObject({
      kind: 'Deployment',
      left: { namespace: ns.name, name: 'checkout-staging' },
      right: { namespace: ns.name, name: 'checkout-production' },
      identical: false,
    });
    const shown = Object.fromEntries(shownOf(answer).map((d) => [d.path, [d.left, d.right]]));
    expect(shown).toMatchObject({
      'spec.replicas': [1, 2],
      'spec.strategy.type': ['Recreate', 'RollingUpdate'],
      'spec.template.spec.containers[name=checkout].image': ['shop/checkout:1.4', 'shop/checkout:1.5'],
      'spec.template.spec.containers[name=checkout].env[name=REGION].value': [undefined, 'eu'],
      'spec.selector.matchLabels.app': ['checkout-staging', 'checkout-production'],
    });
    // Nothing the API server generated or defaulted is among the shown differences.
    expect(
      Object.keys(shown).some((path) => /uid|resourceVersion|creationTimestamp|status\./.test(path)),
    ).toBe(false);
    expect(foldedPaths(answer, 'defaulted').sort()).toEqual([
      'spec.strategy.rollingUpdate.maxSurge',
      'spec.strategy.rollingUpdate.maxUnavailable',
    ]);
    expect(foldedPaths(answer, 'server')).toEqual(
      expect.arrayContaining(['metadata.uid', 'metadata.resourceVersion']),
    );
    expect(foldedPaths(answer, 'status')).toContain('status.replicas');
    expect(answer.counts).toEqual({
      shown: shownOf(answer).length,
      status: foldedPaths(answer, 'status').length,
      defaulted: 2,
      server: foldedPaths(answer, 'server').length,
    });
    expect(answer.equal).toBeGreaterThan(10);
  });

  it('never returns Secret values: only that they differ, with their sizes', async () => {
    const res = await agent.request(
      `/api/compare?kind=secrets&left=${ns.name}/db-staging&right=${ns.name}/db-production`,
    );
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).not.toContain('c3RhZ2luZy1wYXNz');
    expect(text).not.toContain('cHJvZHVjdGlvbi1wYXNzd29yZA');
    const answer = JSON.parse(text) as Comparison;
    expect(shownOf(answer)).toEqual([
      {
        path: 'data.password',
        left: '(secret value, 16 characters)',
        right: '(secret value, 28 characters)',
      },
    ]);
  });

  it('compares one object with itself as it was before a change (time travel)', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const before = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await apps.patchNamespacedDeployment({
      namespace: ns.name,
      name: 'checkout-staging',
      body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'shop/checkout:1.4.1' }],
    });
    await waitUntil(
      'the agent has the new image',
      async () =>
        JSON.stringify(await agent.json(`/api/resources/deployments/${ns.name}/checkout-staging`)).includes(
          '1.4.1',
        ),
      { timeoutMs: 20_000 },
    );
    const ref = `${ns.name}/checkout-staging`;
    const answer = await agent.json<Comparison>(
      `/api/compare?kind=deployments&left=${ref}&leftAt=${encodeURIComponent(before)}&right=${ref}`,
    );
    expect(answer.left.at).toBe(before);
    expect(answer.right.at).toBeUndefined();
    expect(shownOf(answer)).toEqual([
      {
        path: 'spec.template.spec.containers[name=checkout].image',
        left: 'shop/checkout:1.4',
        right: 'shop/checkout:1.4.1',
      },
    ]);
  });

  it('answers 404 naming the missing object, 400 for a malformed side, 403 without get', async () => {
    const missing = await agent.request(
      `/api/compare?kind=deployments&left=${ns.name}/checkout-staging&right=${ns.name}/nothing-here`,
    );
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({
      code: 'not_found',
      error: expect.stringContaining('nothing-here'),
    });
    const malformed = await agent.request(`/api/compare?kind=deployments&left=checkout&right=${ns.name}/x`);
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({
      code: 'invalid_request',
      error: expect.stringContaining('"left"'),
    });
    const refused = await restricted.request(
      `/api/compare?kind=secrets&left=${ns.name}/db-staging&right=${ns.name}/db-production`,
    );
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'forbidden' });
  });

  it('is the compare_objects MCP tool', async () => {
    const client = await connect(agent);
    const answer = await json<Comparison>(client, 'compare_objects', {
      kind: 'deploy',
      namespace: ns.name,
      name: 'checkout-staging',
      other_name: 'checkout-production',
    });
    expect(answer.right).toMatchObject({ namespace: ns.name, name: 'checkout-production' });
    expect(shownOf(answer).map((d) => d.path)).toContain('spec.strategy.type');
  });
});
