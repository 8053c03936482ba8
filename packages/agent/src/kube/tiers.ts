import { integrations } from '@binnacle/common';
import type { ApiResource } from './discovery.ts';
import { resourceKey } from './discovery.ts';

export type TierName = 'core' | 'deferred' | 'custom';

/** What the first screens need: started first, so the agent answers quickly on big clusters. */
const core = new Set([
  'namespaces',
  'nodes',
  'pods',
  'services',
  'configmaps',
  'secrets',
  'persistentvolumeclaims',
  'deployments.apps',
  'replicasets.apps',
  'statefulsets.apps',
  'daemonsets.apps',
  'jobs.batch',
  'cronjobs.batch',
  'ingresses.networking.k8s.io',
]);

/** Built-in kinds loaded in the background once the core tier is in. */
const deferred = new Set([
  'events',
  'persistentvolumes',
  'serviceaccounts',
  'resourcequotas',
  'limitranges',
  'replicationcontrollers',
  'endpoints',
  'storageclasses.storage.k8s.io',
  'horizontalpodautoscalers.autoscaling',
  'poddisruptionbudgets.policy',
  'networkpolicies.networking.k8s.io',
  'ingressclasses.networking.k8s.io',
  'roles.rbac.authorization.k8s.io',
  'rolebindings.rbac.authorization.k8s.io',
  'clusterroles.rbac.authorization.k8s.io',
  'clusterrolebindings.rbac.authorization.k8s.io',
  'customresourcedefinitions.apiextensions.k8s.io',
  'priorityclasses.scheduling.k8s.io',
  'endpointslices.discovery.k8s.io',
]);

/**
 * The groups of the ecosystem projects' kinds (ADR 0127): CRDs, also where a Kubernetes SIG names them under
 * `k8s.io` (Gateway API's `gateway.networking.k8s.io`).
 */
const ecosystemGroups = new Set(integrations.flatMap((integration) => integration.kinds.map((k) => k.group)));

const builtinGroup = (group: string) =>
  !ecosystemGroups.has(group) && (group === '' || group.endsWith('.k8s.io') || !group.includes('.'));

/**
 * Which tier caches a kind, or undefined when the agent does not cache it (served by a live LIST instead):
 * kinds that cannot be watched, built-in kinds nobody browses (leases, controller revisions), aggregated APIs.
 */
export function tierOf(resource: ApiResource): TierName | undefined {
  if (!resource.verbs.includes('list') || !resource.verbs.includes('watch')) return undefined;
  const key = resourceKey(resource);
  if (core.has(key)) return 'core';
  if (deferred.has(key)) return 'deferred';
  // Custom resources: a group that is not Kubernetes' own (CRDs, and watchable aggregated APIs).
  return builtinGroup(resource.group) ? undefined : 'custom';
}

export const tierOrder: TierName[] = ['core', 'deferred', 'custom'];
