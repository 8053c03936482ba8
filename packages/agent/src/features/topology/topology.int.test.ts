import { testCluster, waitUntil } from '@binnacle/testkit';
import { AppsV1Api, CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Topology } from '../../scope/topology/model.ts';
import { TopologyService } from '../../scope/topology/service.ts';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(async () => {
  await agent?.close();
});

const edge = (t: Topology, type: string, source: string, target: string) =>
  t.edges.some((e) => e.type === type && e.source === source && e.target === target);

describe('GET /api/topology of the sample workloads', () => {
  it('draws every relation the seed has', async () => {
    const t = await agent.json<Topology>('/api/topology?namespaces=demo-shop,demo-data');
    expect(t.warnings).toEqual([]);
    const expected: [string, string, string][] = [
      ['routes-to', 'ingress/demo-shop/storefront', 'service/demo-shop/storefront'],
      ['exposes', 'service/demo-shop/storefront', 'deployment/demo-shop/storefront'],
      ['configures', 'configmap/demo-shop/storefront-config', 'deployment/demo-shop/storefront'],
      ['uses', 'horizontalpodautoscaler/demo-shop/storefront', 'deployment/demo-shop/storefront'],
      ['uses', 'persistentvolumeclaim/demo-data/data-postgres-0', 'statefulset/demo-data/postgres'],
      ['protects', 'poddisruptionbudget/demo-shop/storefront', 'deployment/demo-shop/storefront'],
    ];
    for (const [type, source, target] of expected)
      expect(edge(t, type, source, target), `${source} -${type}-> ${target}`).toBe(true);
    const storefrontPods = t.edges.filter(
      (e) => e.type === 'manages' && e.source === 'deployment/demo-shop/storefront',
    );
    expect(storefrontPods).toHaveLength(3);
    expect(storefrontPods.every((e) => e.target.startsWith('pod/demo-shop/storefront-'))).toBe(true);
    expect(t.nodes.find((n) => n.id === 'deployment/demo-shop/storefront')).toMatchObject({
      kind: 'Deployment',
      status: 'healthy',
      data: { replicas: 3, ready: 3 },
    });
  });

  it('joins GitOps objects to what they applied: Argo CD status.resources, helm-controller labels', async () => {
    const argo = await agent.json<Topology>('/api/topology?namespaces=argocd,demo-shop');
    for (const target of [
      'deployment/demo-shop/storefront',
      'service/demo-shop/storefront',
      'configmap/demo-shop/storefront-config',
      'ingress/demo-shop/storefront',
    ])
      expect(edge(argo, 'manages', 'application/argocd/storefront', target), target).toBe(true);
    expect(argo.nodes.find((n) => n.id === 'application/argocd/storefront')).toMatchObject({
      status: 'healthy',
      data: { sync: 'Synced', health: 'Healthy', automated: true },
    });
    // The seeded HelmRelease that helm-controller installed: every object of the release carries its labels.
    const flux = await agent.json<Topology>('/api/topology?namespace=flux-demo');
    for (const target of [
      'deployment/flux-demo/billing',
      'service/flux-demo/billing',
      'configmap/flux-demo/billing-config',
    ])
      expect(edge(flux, 'manages', 'helmrelease/flux-demo/billing', target), target).toBe(true);
    expect(flux.nodes.find((n) => n.id === 'helmrelease/flux-demo/billing')?.status).toBe('healthy');
  });

  it('groups pods above the threshold into one PodGroup node', async () => {
    const t = await agent.json<Topology>('/api/topology?namespace=demo-shop&podGroupThreshold=2');
    const group = t.nodes.find((n) => n.kind === 'PodGroup' && n.name === 'storefront pods');
    expect(group).toMatchObject({
      id: 'podgroup/demo-shop/deployment-storefront',
      status: 'healthy',
      data: { count: 3, healthy: 3 },
    });
    expect(
      edge(t, 'manages', 'deployment/demo-shop/storefront', 'podgroup/demo-shop/deployment-storefront'),
    ).toBe(true);
    expect(t.nodes.some((n) => n.kind === 'Pod' && n.name.startsWith('checkout-'))).toBe(true);
  });

  it('shows ReplicaSets with shortcut edges, and Secrets, on request', async () => {
    const t = await agent.json<Topology>('/api/topology?namespace=demo-shop&replicaSets=true&secrets=true');
    const rs = t.nodes.find((n) => n.kind === 'ReplicaSet' && n.name.startsWith('storefront-'));
    expect(rs).toBeDefined();
    expect(edge(t, 'manages', 'deployment/demo-shop/storefront', rs?.id ?? '')).toBe(true);
    const shortcut = t.edges.find(
      (e) => e.source === 'deployment/demo-shop/storefront' && e.target.startsWith('pod/'),
    );
    expect(shortcut?.skipIfKindVisible).toBe('ReplicaSet');
    expect(
      edge(t, 'configures', 'secret/demo-shop/storefront-credentials', 'deployment/demo-shop/storefront'),
    ).toBe(true);
  });

  it('draws a cluster above the size guard as pod groups, or one node per namespace, counting what the API server has', async () => {
    const collapsed = new TopologyService(10).get(agent.agent.ctx, {});
    // Just above the guard: the workloads stay, each owner's pods one group, the ConfigMaps left out. Drawn
    // before anything is awaited, from the same cache: the other files change the shared cluster meanwhile.
    const grouped = new TopologyService(Number(collapsed.estimatedNodes) - 1).get(agent.agent.ctx, {});
    expect(collapsed.collapsedToNamespaces).toBe(true);
    expect(collapsed.edges).toEqual([]);
    expect(collapsed.estimatedNodes).toBeGreaterThan(10);
    const core = testCluster().kubeConfig().makeApiClient(CoreV1Api);
    for (const name of ['demo-shop', 'demo-data']) {
      const node = collapsed.nodes.find((n) => n.id === `namespace/${name}`);
      const pods = (await core.listNamespacedPod({ namespace: name })).items;
      expect(node, name).toMatchObject({ kind: 'Namespace', name, data: { pods: pods.length } });
      expect(Number(node?.data.objects)).toBeGreaterThan(pods.length);
      const judged = ['healthy', 'degraded', 'unhealthy', 'unknown'].reduce(
        (sum, h) => sum + Number(node?.data[h]),
        0,
      );
      // Its pods and the workloads that run them.
      expect(judged).toBeGreaterThan(pods.length);
    }
    expect(collapsed.nodes.every((n) => n.kind === 'Namespace')).toBe(true);
    expect(collapsed.levelOfDetail).toBe('namespaces');
    expect(grouped.levelOfDetail).toBe('pod-groups');
    expect(grouped.leftOutKinds).toContain('ConfigMap');
    expect(grouped.nodes.some((n) => n.kind === 'Pod' || n.kind === 'ConfigMap')).toBe(false);
    expect(grouped.nodes.some((n) => n.id === 'deployment/demo-shop/storefront')).toBe(true);
    expect(grouped.nodes.some((n) => n.id === 'podgroup/demo-shop/deployment-storefront')).toBe(true);
    const one = new TopologyService(10).get(agent.agent.ctx, { namespaces: ['demo-shop'] });
    expect(one.collapsedToNamespaces).toBeUndefined();
    expect(one.nodes.some((n) => n.id === 'deployment/demo-shop/storefront')).toBe(true);
  });

  it('is memoized: the same graph object until the cache changes', () => {
    const service = new TopologyService();
    const a = service.get(agent.agent.ctx, { namespaces: ['demo-ops'] });
    expect(service.get(agent.agent.ctx, { namespaces: ['demo-ops'] })).toBe(a);
  });
});

describe('GET /api/topology grouped', () => {
  const seeded = ['demo-shop', 'demo-data', 'demo-ops'];

  /** The PodGroup each pod belongs in, from the API server's own objects: its owner, else its app label. */
  async function expectedGroups(namespaces: string[]): Promise<Map<string, number>> {
    const kc = testCluster().kubeConfig();
    const [pods, replicaSets] = await Promise.all([
      kc.makeApiClient(CoreV1Api).listPodForAllNamespaces(),
      kc.makeApiClient(AppsV1Api).listReplicaSetForAllNamespaces(),
    ]);
    const deploymentOf = new Map(
      replicaSets.items.map((rs) => [
        `${rs.metadata?.namespace}/${rs.metadata?.name}`,
        rs.metadata?.ownerReferences?.find((r) => r.controller)?.name,
      ]),
    );
    const counts = new Map<string, number>();
    for (const pod of pods.items) {
      const namespace = pod.metadata?.namespace ?? '';
      if (!namespaces.includes(namespace)) continue;
      const owner = pod.metadata?.ownerReferences?.find((r) => r.controller);
      const deployment =
        owner?.kind === 'ReplicaSet' ? deploymentOf.get(`${namespace}/${owner.name}`) : undefined;
      const group = deployment
        ? `deployment-${deployment}`
        : owner
          ? `${owner.kind.toLowerCase()}-${owner.name}`
          : `app-${pod.metadata?.labels?.app}`;
      const id = `podgroup/${namespace}/${group}`;
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  }

  it("groups the whole cluster's pods per owner, and pods without one per app, as many as the API server has", async () => {
    const cluster = testCluster();
    const ns = await cluster.namespace('topology-groups');
    const core = cluster.kubeConfig().makeApiClient(CoreV1Api);
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        core.createNamespacedPod({
          namespace: ns.name,
          body: {
            metadata: { name: `loose-${i}`, labels: { app: 'loose', index: String(i) } },
            spec: { containers: [{ name: 'app', image: 'nginx:1.27.3' }] },
          },
        }),
      ),
    );
    await core.createNamespacedService({
      namespace: ns.name,
      body: { metadata: { name: 'loose' }, spec: { selector: { app: 'loose' }, ports: [{ port: 80 }] } },
    });
    const groupId = `podgroup/${ns.name}/app-loose`;
    await waitUntil(
      'the six pods and their Service in the cache',
      async () => {
        const t = await agent.json<Topology>(`/api/topology?namespace=${ns.name}&podGroupThreshold=2`);
        return (
          t.nodes.find((n) => n.id === groupId)?.data.count === 6 &&
          edge(t, 'exposes', `service/${ns.name}/loose`, groupId)
        );
      },
      { timeoutMs: 30_000 },
    );

    // The whole graph is memoized for up to 2 s while the cache keeps changing: wait for a build that has the Service.
    let whole = await agent.json<Topology>('/api/topology?podGroupThreshold=2');
    await waitUntil(
      'the whole graph with the Service',
      async () => {
        whole = await agent.json<Topology>('/api/topology?podGroupThreshold=2');
        return edge(whole, 'exposes', `service/${ns.name}/loose`, groupId);
      },
      { timeoutMs: 10_000 },
    );
    expect(whole.collapsedToNamespaces).toBeUndefined();
    const expected = await expectedGroups([...seeded, ns.name]);
    const drawn = whole.nodes.filter(
      (n) => n.kind === 'PodGroup' && [...seeded, ns.name].includes(n.namespace ?? ''),
    );
    expect(Object.fromEntries(drawn.map((n) => [n.id, n.data.count]))).toEqual(
      Object.fromEntries([...expected].filter(([, count]) => count > 2)),
    );
    expect(edge(whole, 'exposes', `service/${ns.name}/loose`, groupId)).toBe(true);

    // Expanded, the group is its pods again, each exposed by the Service.
    const expanded = await agent.json<Topology>(
      `/api/topology?namespace=${ns.name}&podGroupThreshold=2&expand=${encodeURIComponent(groupId)}`,
    );
    expect(expanded.nodes.some((n) => n.id === groupId)).toBe(false);
    const pods = expanded.nodes.filter((n) => n.kind === 'Pod');
    expect(pods.map((n) => n.name).sort()).toEqual(Array.from({ length: 6 }, (_, i) => `loose-${i}`));
    for (const pod of pods) expect(edge(expanded, 'exposes', `service/${ns.name}/loose`, pod.id)).toBe(true);
  });
});
