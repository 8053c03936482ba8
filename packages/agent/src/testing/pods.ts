import { testCluster, waitUntil } from '@binnacle/testkit';
import { CoreV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';

const admin = () => testCluster().kubeConfig('admin').makeApiClient(CoreV1Api);

/**
 * A bare pod with the status a kubelet would report: created, left to run on a simulated node (which runs no
 * container and so never fails one), then given `status` by a merge patch, as the admin.
 */
export async function podWithStatus(
  namespace: string,
  name: string,
  status: Record<string, unknown>,
): Promise<void> {
  const core = admin();
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

/**
 * A pod whose container keeps crashing, as a kubelet reports one: running, its container waiting in
 * CrashLoopBackOff after 4 restarts, its last run ended with exit 1, and the kubelet's BackOff event.
 */
export async function crashLoopingPod(namespace: string, name: string): Promise<void> {
  const core = admin();
  const now = new Date();
  const earlier = new Date(now.getTime() - 30_000);
  await podWithStatus(namespace, name, {
    conditions: [{ type: 'Ready', status: 'False', reason: 'ContainersNotReady' }],
    containerStatuses: [
      {
        name: 'main',
        image: 'ghcr.io/acme/worker:1.0',
        imageID: '',
        ready: false,
        restartCount: 4,
        state: {
          waiting: {
            reason: 'CrashLoopBackOff',
            message: `back-off 40s restarting failed container=main pod=${name}_${namespace}`,
          },
        },
        lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt: earlier, finishedAt: now } },
      },
    ],
  });
  await core.createNamespacedEvent({
    namespace,
    body: {
      metadata: { generateName: `${name}.` },
      involvedObject: { kind: 'Pod', namespace, name, apiVersion: 'v1', fieldPath: 'spec.containers{main}' },
      type: 'Warning',
      reason: 'BackOff',
      message: 'Back-off restarting failed container main',
      source: { component: 'kubelet' },
      count: 4,
      firstTimestamp: earlier,
      lastTimestamp: now,
    },
  });
}
