import type { KubeObject } from '@binnacle/common';
import { conditionsOf, find, type HealthWhy, noStatus, positive, verdict } from './verdict.ts';

/**
 * KEDA v2.18.0 (apis/keda/v1alpha1/condition_types.go, controllers/keda/scaledobject_controller.go): Ready
 * (False `ScaledObjectCheckFailed` when the target or a trigger is wrong), Active (a trigger is active: informative,
 * an idle object scaled to its minimum is fine), Fallback (True when the scalers fail and the fallback replicas
 * are used) and Paused (the `autoscaling.keda.sh/paused*` annotations).
 */
const none = new Set<string>();

export function kedaHealth(object: KubeObject): HealthWhy {
  if (object.kind !== 'ScaledObject' && object.kind !== 'ScaledJob')
    // TriggerAuthentication, ClusterTriggerAuthentication: credentials, with no status of their own.
    return verdict('healthy');
  const conditions = conditionsOf(object);
  const ready = find(conditions, 'Ready');
  if (!ready) return noStatus('on this scaler');
  const paused = find(conditions, 'Paused');
  if (paused?.status === 'True') return verdict('degraded', 'Paused', paused.reason, paused.message);
  if (ready.status !== 'True') return positive(ready, none);
  const fallback = find(conditions, 'Fallback');
  if (fallback?.status === 'True') return verdict('degraded', 'Fallback', fallback.reason, fallback.message);
  return positive(ready, none);
}
