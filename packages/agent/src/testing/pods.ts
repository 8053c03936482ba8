import { testCluster, waitUntil } from '@binnacle/testkit';
import { CoreV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';

/**
 * A bare pod with the status a kubelet would report: created, left to run on a simulated node (which runs no
 * container and so never fails one), then given `status` by a merge patch, as the admin.
 */
export async function podWithStatus(
  namespace: string,
  name: string,
  status: Record<string, unknown>,
): Promise<void> {
  const core = testCluster().kubeConfig('admin').makeApiClient(CoreV1Api);
  await core.createNamespacedPod({
    namespace,
    body: { metadata: { name }, spec: { containers: [{ name: 'main', image: 'ghcr.io/acme/worker:1.0' }] } },
  });
  await waitUntil(
    `${name} Running`,
    async () => (await core.readNamespacedPod({ namespace, name })).status?.phase === 'Running',
    { timeoutMs: 30_000 },
  );
  await core.patchNamespacedPodStatus(
    { namespace, name, body: { status } },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
}
