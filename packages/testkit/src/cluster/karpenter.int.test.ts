import { AppsV1Api, CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentBody } from '../fixtures.ts';
import { clusterNodesLock, testCluster } from '../test-cluster.ts';
import {
  type KarpenterNodePool,
  karpenterGroups,
  karpenterNodePool,
  nodePoolLabel,
} from './karpenter-node-pool.ts';
import { waitUntil } from './wait.ts';

interface Condition {
  type: string;
  status: string;
  reason?: string;
}
interface NodeClaim {
  metadata: { name: string; labels?: Record<string, string> };
  status?: { nodeName?: string; providerID?: string; conditions?: Condition[] };
}

const cluster = testCluster();
const core = cluster.kubeConfig().makeApiClient(CoreV1Api);
const apps = cluster.kubeConfig().makeApiClient(AppsV1Api);
const custom = cluster.kubeConfig().makeApiClient(CustomObjectsApi);
const conditionOf = (object: { status?: { conditions?: Condition[] } }, type: string) =>
  object.status?.conditions?.find((condition) => condition.type === type);

let pool: KarpenterNodePool;
let namespace: { name: string; remove: () => Promise<void> };
let unlockNodes: () => Promise<void>;

beforeAll(async () => {
  unlockNodes = await cluster.lock(clusterNodesLock);
  pool = await karpenterNodePool(cluster.kubeConfig(), 'karpenter-test');
  namespace = await cluster.namespace('karpenter');
});
afterAll(async () => {
  await namespace?.remove();
  await pool?.remove();
  await unlockNodes?.();
});

/** ADR 0127: Karpenter's real controllers with its kwok provider; kwok runs the Nodes it launches. */
describe('Karpenter in the test control plane', () => {
  it('launches a node for a pending pod its NodePool admits, and removes it with its NodeClaim', async () => {
    // A Deployment, not a bare pod: while Karpenter registers a node it launched, the node's taints can evict a pod
    // bound a moment early (seen under load: the taint-eviction controller deleted it), and a controller replaces it.
    const workload = deploymentBody('needs-a-node');
    const podSpec = workload.spec?.template.spec;
    if (!podSpec) throw new Error('deploymentBody has no pod template');
    Object.assign(podSpec, {
      tolerations: [pool.toleration],
      // Karpenter drains the node before it deletes it: a pod that leaves at once keeps the test short.
      terminationGracePeriodSeconds: 0,
      nodeSelector: { [nodePoolLabel]: pool.name },
    });
    podSpec.containers[0] = {
      name: 'app',
      image: 'registry.example/app:1.0',
      resources: { requests: { cpu: '500m' } },
    };
    await apps.createNamespacedDeployment({ namespace: namespace.name, body: workload });
    const listClaims = async () =>
      (
        (await custom.listClusterCustomObject({
          ...karpenterGroups.karpenter,
          plural: 'nodeclaims',
          labelSelector: `${nodePoolLabel}=${pool.name}`,
        })) as { items: NodeClaim[] }
      ).items;
    let claim: NodeClaim = { metadata: { name: '' } };
    await waitUntil(
      'a NodeClaim of the pool Initialized, its Node registered',
      async () => {
        const [found] = await listClaims();
        if (!found || conditionOf(found, 'Initialized')?.status !== 'True')
          throw new Error(found ? JSON.stringify(found.status?.conditions) : 'no NodeClaim yet');
        claim = found;
        return true;
      },
      { timeoutMs: 90_000, intervalMs: 500 },
    );
    expect(conditionOf(claim, 'Launched')?.status).toBe('True');
    expect(conditionOf(claim, 'Registered')?.status).toBe('True');
    const nodeName = claim.status?.nodeName ?? '';
    const node = await core.readNode({ name: nodeName });
    expect(node.metadata?.labels?.[nodePoolLabel]).toBe(pool.name);
    expect(node.spec?.providerID).toBe(claim.status?.providerID);
    expect(node.spec?.taints).toEqual(
      expect.arrayContaining([expect.objectContaining({ value: pool.name })]),
    );
    await waitUntil(
      'a pod of the Deployment running on the new node',
      async () => {
        const pods = await core.listNamespacedPod({
          namespace: namespace.name,
          labelSelector: 'app=needs-a-node',
        });
        const running = pods.items.find(
          (pod) => pod.status?.phase === 'Running' && !pod.metadata?.deletionTimestamp,
        );
        if (!running) throw new Error(pods.items.map((pod) => pod.status?.phase).join(', ') || 'no pod yet');
        expect(running.spec?.nodeName).toBe(nodeName);
        return true;
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    await apps.patchNamespacedDeploymentScale({
      namespace: namespace.name,
      name: 'needs-a-node',
      body: [{ op: 'replace', path: '/spec/replicas', value: 0 }],
    });

    // Scaled to zero: nothing asks for a node after the NodeClaim goes.
    await custom.deleteClusterCustomObject({
      ...karpenterGroups.karpenter,
      plural: 'nodeclaims',
      name: claim.metadata.name,
    });
    await waitUntil(
      'Karpenter terminating the NodeClaim and its Node',
      async () => {
        const nodes = await core.listNode({ labelSelector: `${nodePoolLabel}=${pool.name}` });
        const claims = await listClaims();
        if (nodes.items.length + claims.length > 0)
          throw new Error(`${claims.length} NodeClaims and ${nodes.items.length} Nodes left`);
        return true;
      },
      { timeoutMs: 90_000, intervalMs: 500 },
    );
    await expect(core.readNode({ name: nodeName })).rejects.toMatchObject({ code: 404 });
    // A backstop above the three deadlines of the waits (docs/development.md, CI): under load each phase takes tens of seconds.
  }, 250_000);
});
