import { randomBytes } from 'node:crypto';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { inject } from 'vitest';
import type { ClusterState } from './cluster/state.ts';

export type ClusterIdentity = 'admin' | 'restricted';

export interface TestCluster {
  state: ClusterState;
  /** https://127.0.0.1:<port> */
  server: string;
  kubeconfigPath(identity?: ClusterIdentity): string;
  /** A client-node KubeConfig for the admin (system:masters) or the restricted (no rights) identity. */
  kubeConfig(identity?: ClusterIdentity): KubeConfig;
  /** Creates a uniquely named namespace; returns its name and a function that deletes it. */
  namespace(prefix: string): Promise<{ name: string; remove: () => Promise<void> }>;
}

/**
 * The running, seeded control plane of the integration project (started once by the global setup).
 * One call gives a test everything it needs to talk to the cluster.
 */
export function testCluster(): TestCluster {
  const state = inject('binnacleCluster');
  if (!state) {
    throw new Error(
      'no control plane: integration tests (*.int.test.ts) must run in the vitest "integration" project',
    );
  }
  const kubeconfigPath = (identity: ClusterIdentity = 'admin') => state.kubeconfigs[identity];
  const kubeConfig = (identity: ClusterIdentity = 'admin') => {
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfigPath(identity));
    return kc;
  };
  return {
    state,
    server: state.server,
    kubeconfigPath,
    kubeConfig,
    async namespace(prefix) {
      const core = kubeConfig('admin').makeApiClient(CoreV1Api);
      const name = `${prefix}-${randomBytes(3).toString('hex')}`;
      await core.createNamespace({ body: { metadata: { name, labels: { 'binnacle.dev/test': 'true' } } } });
      return { name, remove: async () => void (await core.deleteNamespace({ name })) };
    },
  };
}
