import { mapConcurrently } from '@binnacle/common';
import type { CoreV1Api } from '@kubernetes/client-node';

/** Events as Flux's kustomize-controller writes them when a reconciliation succeeds, and one warning. */
export async function fluxEvents(core: CoreV1Api, namespace: string, count: number): Promise<void> {
  const now = new Date();
  const event = (name: string, type: string, reason: string, component: string) => ({
    metadata: { name },
    involvedObject: {
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      namespace,
      name: 'apps',
    },
    type,
    reason,
    message: `${reason}: applied revision main@sha1:0123abcd`,
    source: { component },
    count: 1,
    firstTimestamp: now,
    lastTimestamp: now,
  });
  await Promise.all([
    ...Array.from({ length: count }, (_, i) =>
      core.createNamespacedEvent({
        namespace,
        body: event(`apps.reconciled-${i}`, 'Normal', 'ReconciliationSucceeded', 'kustomize-controller'),
      }),
    ),
    core.createNamespacedEvent({
      namespace,
      body: event('apps.failed', 'Warning', 'HealthCheckFailed', 'kustomize-controller'),
    }),
  ]);
}

/**
 * `perNamespace` bare pods in each namespace, labelled with one of `apps` app names, placed on the nodes
 * directly (kwok runs them without the scheduler): a cluster big enough that its topology opens far out.
 */
export async function appPods(
  core: CoreV1Api,
  namespaces: string[],
  apps: string[],
  perNamespace: number,
  nodes: string[],
): Promise<void> {
  const pods = namespaces.flatMap((namespace) =>
    Array.from({ length: perNamespace }, (_, i) => ({ namespace, i })),
  );
  await mapConcurrently(pods, 16, ({ namespace, i }) =>
    core.createNamespacedPod({
      namespace,
      body: {
        metadata: { name: `pod-${i}`, labels: { app: apps[i % apps.length] as string } },
        spec: { nodeName: nodes[i % nodes.length], containers: [{ name: 'app', image: 'nginx:1.27.3' }] },
      },
    }),
  );
}
