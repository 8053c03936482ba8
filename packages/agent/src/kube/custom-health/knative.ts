import type { KubeObject } from '@binnacle/common';
import { conditionsOf, find, type HealthWhy, noStatus, positive } from './verdict.ts';

/**
 * Knative Serving v0.47.0: Ready is the happy condition over its dependents (knative.dev/pkg apis.ConditionSet):
 * a Service's ConfigurationsReady and RoutesReady (pkg/apis/serving/v1/service_lifecycle.go), a Revision's
 * ResourcesAvailable and ContainerHealthy (revision_lifecycle.go), a Route's AllTrafficAssigned, IngressReady and
 * CertificateProvisioned (route_lifecycle.go). The why is the first dependent in Ready's state that carries a
 * reason, which names what broke (`RevisionFailed`, `ExitCode1`, `RevisionMissing`…): a dependent merely
 * initialized (a Configuration waiting for its first Revision) is Unknown with none. A Revision scaled to zero is
 * Ready with Active False: healthy.
 */
const dependents: Record<string, string[]> = {
  Service: ['ConfigurationsReady', 'RoutesReady'],
  Revision: ['ResourcesAvailable', 'ContainerHealthy'],
  Route: ['AllTrafficAssigned', 'IngressReady', 'CertificateProvisioned'],
  Configuration: [],
};
const none = new Set<string>();

export function knativeHealth(object: KubeObject): HealthWhy {
  const conditions = conditionsOf(object);
  const ready = find(conditions, 'Ready');
  if (!ready) return noStatus('on this object');
  if (ready.status === 'True') return positive(ready, none);
  const cause = (dependents[object.kind ?? ''] ?? [])
    .map((type) => find(conditions, type))
    .find((c) => c && c.status === ready.status && c.reason);
  const judged = positive(ready, none);
  return cause ? { ...positive(cause, none), health: judged.health } : judged;
}
