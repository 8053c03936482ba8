import { type CoreV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { waitUntil } from './cluster/wait.ts';

/**
 * Pods that kwok starts and the test then marks evicted (phase Failed, reason Evicted), as the kubelet does under
 * memory pressure: failing pods that stay put, since kwok leaves a failed pod alone.
 */
export async function evictedPods(core: CoreV1Api, namespace: string, names: string[]): Promise<void> {
  await Promise.all(
    names.map((name) =>
      core.createNamespacedPod({
        namespace,
        body: { metadata: { name }, spec: { containers: [{ name: 'main', image: 'busybox:1.37' }] } },
      }),
    ),
  );
  await waitUntil(
    `${names.length} pods Running`,
    async () =>
      (await core.listNamespacedPod({ namespace })).items.filter(
        (p) => names.includes(p.metadata?.name ?? '') && p.status?.phase === 'Running',
      ).length === names.length,
    { timeoutMs: 30_000 },
  );
  await Promise.all(
    names.map((name) =>
      core.patchNamespacedPodStatus(
        {
          namespace,
          name,
          body: { status: { phase: 'Failed', reason: 'Evicted', message: 'The node was low on memory.' } },
        },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      ),
    ),
  );
}
