import type { KubeObject } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import type { Cluster } from './cluster.ts';

type Obj = Record<string, unknown>;
const names = (list: unknown) => (Array.isArray(list) ? (list as Obj[]).map((c) => String(c.name)) : []);

/** Every container of a pod a log can come from: containers, init containers, ephemeral (debug) containers. */
export function containersOf(pod: KubeObject): string[] {
  return [
    ...names(pod.spec?.containers),
    ...names(pod.spec?.initContainers),
    ...names(pod.spec?.ephemeralContainers),
  ];
}

/** The container `kubectl logs` would pick: the default-container annotation, else the first one. */
export function defaultContainer(pod: KubeObject): string {
  return (
    pod.metadata?.annotations?.['kubectl.kubernetes.io/default-container'] ??
    names(pod.spec?.containers)[0] ??
    ''
  );
}

/**
 * Finds the pod in the cache and checks the container; 404 for a missing pod, and for a missing container naming
 * those it has (what a pod holds is the cluster's state, not a malformed request).
 */
export function podAndContainer(
  cluster: Cluster,
  namespace: string,
  name: string,
  container?: string,
): { pod: KubeObject; container: string } {
  const pod = cluster.cache.get(cluster.resolve('pods'), name, namespace);
  if (!pod) throw new AppError('not_found', `pod ${namespace}/${name} not found`);
  const chosen = container ?? defaultContainer(pod);
  const all = containersOf(pod);
  if (!all.includes(chosen))
    throw new AppError(
      'not_found',
      `pod ${namespace}/${name} has no container "${chosen}"; it has: ${all.join(', ')}`,
    );
  return { pod, container: chosen };
}
