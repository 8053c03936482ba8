import { randomBytes } from 'node:crypto';
import {
  CoreV1Api,
  CustomObjectsApi,
  type KubeConfig,
  PatchStrategy,
  setHeaderOptions,
  type V1Toleration,
} from '@kubernetes/client-node';
import { waitUntil } from './wait.ts';

export const karpenterGroups = {
  karpenter: { group: 'karpenter.sh', version: 'v1' },
  kwok: { group: 'karpenter.kwok.sh', version: 'v1alpha1' },
} as const;

/** The label Karpenter puts on a NodeClaim and its Node: the NodePool that launched them. */
export const nodePoolLabel = 'karpenter.sh/nodepool';

export interface KarpenterNodePool {
  /** The NodePool's name, which its KWOKNodeClass shares. */
  name: string;
  /** What a pod needs to land on this pool's nodes: they carry a taint only this pool's tests tolerate. */
  toleration: V1Toleration;
  /** Deletes the NodePool, waits until Karpenter has removed its NodeClaims and Nodes, then the NodeClass. */
  remove: () => Promise<void>;
}

/**
 * A NodePool of Karpenter's kwok provider (ADR 0127) for one test, with its KWOKNodeClass marked Ready (nothing
 * else writes a KWOKNodeClass's status). Its nodes carry a taint only pods with `toleration` tolerate, so Karpenter
 * provisions for this test's pending pods and no other test's. Consolidation is off: a node goes only when its
 * NodeClaim is deleted (or the pool is). Tests that call this add Nodes: hold `clusterNodesLock`.
 */
export async function karpenterNodePool(kc: KubeConfig, prefix = 'binnacle'): Promise<KarpenterNodePool> {
  const custom = kc.makeApiClient(CustomObjectsApi);
  const name = `${prefix}-${randomBytes(3).toString('hex')}`;
  const taint = { key: 'binnacle.dev/karpenter-test', value: name, effect: 'NoSchedule' };
  const nodeClass = { ...karpenterGroups.kwok, plural: 'kwoknodeclasses' };
  const nodePool = { ...karpenterGroups.karpenter, plural: 'nodepools' };
  await custom.createClusterCustomObject({
    ...nodeClass,
    body: { apiVersion: 'karpenter.kwok.sh/v1alpha1', kind: 'KWOKNodeClass', metadata: { name }, spec: {} },
  });
  await custom.patchClusterCustomObjectStatus(
    {
      ...nodeClass,
      name,
      body: {
        status: {
          conditions: [
            {
              type: 'Ready',
              status: 'True',
              reason: 'Ready',
              message: '',
              lastTransitionTime: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
            },
          ],
        },
      },
    },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
  await custom.createClusterCustomObject({
    ...nodePool,
    body: {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodePool',
      metadata: { name },
      spec: {
        template: {
          spec: {
            nodeClassRef: { group: karpenterGroups.kwok.group, kind: 'KWOKNodeClass', name },
            requirements: [{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] }],
            taints: [taint],
            expireAfter: 'Never',
          },
        },
        disruption: { consolidationPolicy: 'WhenEmpty', consolidateAfter: 'Never' },
        limits: { cpu: '16' },
      },
    },
  });
  return {
    name,
    toleration: { ...taint, operator: 'Equal' },
    remove: async () => {
      await custom.deleteClusterCustomObject({ ...nodePool, name }).catch(ignoreNotFound);
      const core = kc.makeApiClient(CoreV1Api);
      const selector = `${nodePoolLabel}=${name}`;
      await waitUntil(
        `Karpenter removing the NodeClaims and Nodes of NodePool ${name}`,
        async () => {
          const claims = (await custom.listClusterCustomObject({
            ...karpenterGroups.karpenter,
            plural: 'nodeclaims',
            labelSelector: selector,
          })) as { items: unknown[] };
          const nodes = await core.listNode({ labelSelector: selector });
          if (claims.items.length + nodes.items.length > 0)
            throw new Error(`${claims.items.length} NodeClaims and ${nodes.items.length} Nodes left`);
          return true;
        },
        { timeoutMs: 60_000, intervalMs: 250 },
      );
      await custom.deleteClusterCustomObject({ ...nodeClass, name }).catch(ignoreNotFound);
    },
  };
}

function ignoreNotFound(error: { code?: number }): void {
  if (error.code !== 404) throw error;
}
