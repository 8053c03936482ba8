import { type KubeObject, parseQuantity, podRequestAmounts } from '@binnacle/common';

/** The resources a node's page compares: what it has, what the scheduler may hand out, what pods asked for. */
export const nodeResources = ['cpu', 'memory', 'pods', 'ephemeral-storage'] as const;
export type NodeResource = (typeof nodeResources)[number];

type Quantities = Record<string, string> | undefined;

/** A pod that still holds its node's resources: the scheduler stops counting it once it has finished. */
export const holdsResources = (pod: KubeObject) => {
  const phase = (pod.status as { phase?: string } | undefined)?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed';
};

/** What a pod requests of a resource as the scheduler counts it (`podRequestAmounts`), in the resource's unit. */
export function podRequest(pod: KubeObject, resource: string): number {
  if (resource === 'pods') return 1;
  return (podRequestAmounts(pod).get(resource) ?? 0) / 1000;
}

/** Each resource's capacity, allocatable and the requests of the node's pods that still hold resources. */
export function nodeFigures(node: KubeObject, pods: KubeObject[]) {
  const status = (node.status ?? {}) as { capacity?: Quantities; allocatable?: Quantities };
  const holding = pods.filter(holdsResources);
  return nodeResources.map((resource) => ({
    resource,
    capacity: parseQuantity(status.capacity?.[resource] ?? ''),
    allocatable: parseQuantity(status.allocatable?.[resource] ?? ''),
    requested: holding.reduce((total, pod) => total + podRequest(pod, resource), 0),
  }));
}

/** A node's roles from its `node-role.kubernetes.io/<role>` labels, as `kubectl get nodes` shows them. */
export function nodeRoles(node: KubeObject): string[] {
  const prefix = 'node-role.kubernetes.io/';
  const roles = Object.keys(node.metadata?.labels ?? {})
    .filter((k) => k.startsWith(prefix))
    .map((k) => k.slice(prefix.length))
    .filter(Boolean);
  const legacy = node.metadata?.labels?.['kubernetes.io/role'];
  return [...new Set([...roles, ...(legacy ? [legacy] : [])])].sort();
}
