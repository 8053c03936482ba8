import { testCluster } from '@binnacle/testkit';
import { RbacAuthorizationV1Api } from '@kubernetes/client-node';

/**
 * Binds a ClusterRole (default `view`) to a user or group in one namespace, as the control plane's admin;
 * resolves with a function that removes the binding again.
 */
export async function bindInNamespace(
  namespace: string,
  subject: { kind: 'User' | 'Group'; name: string },
  clusterRole = 'view',
): Promise<() => Promise<void>> {
  const rbac = testCluster().kubeConfig('admin').makeApiClient(RbacAuthorizationV1Api);
  const name = `binnacle-test-${clusterRole}-${Math.random().toString(36).slice(2, 8)}`;
  await rbac.createNamespacedRoleBinding({
    namespace,
    body: {
      metadata: { name },
      subjects: [{ ...subject, apiGroup: 'rbac.authorization.k8s.io' }],
      roleRef: { kind: 'ClusterRole', name: clusterRole, apiGroup: 'rbac.authorization.k8s.io' },
    },
  });
  return async () => {
    await rbac.deleteNamespacedRoleBinding({ name, namespace }).catch(() => undefined);
  };
}
