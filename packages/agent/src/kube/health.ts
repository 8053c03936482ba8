import { groupOf, integrationOf, isFailingPod, type KubeObject } from '@binnacle/common';
import { conventionHealth } from './custom-health/conventions.ts';
import { integrationHealth } from './custom-health/rules.ts';
import { type Health, type HealthWhy, verdict } from './custom-health/verdict.ts';

export type { Health, HealthWhy } from './custom-health/verdict.ts';

type Obj = Record<string, unknown>;
const num = (v: unknown) => (typeof v === 'number' ? v : 0);
const conditions = (o: KubeObject) => (o.status?.conditions as Obj[] | undefined) ?? [];
/** The status (`True`, `False`, `Unknown`) of an object's condition of this type, if it reports one. */
export const condition = (o: KubeObject, type: string) => conditions(o).find((c) => c.type === type)?.status;
function replicaHealth(want: number, ready: number): Health {
  if (want === 0) return 'healthy';
  if (ready >= want) return 'healthy';
  return ready > 0 ? 'degraded' : 'unhealthy';
}

/** Argo CD's health of an Application in our words: Progressing and Suspended are on their way, not broken. */
const applicationHealth: Record<string, Health> = {
  Healthy: 'healthy',
  Progressing: 'degraded',
  Suspended: 'degraded',
  Degraded: 'unhealthy',
  Missing: 'unhealthy',
};

/** Kubernetes' own groups: the core group, the unqualified ones (apps, batch…) and `*.k8s.io`. */
const builtInGroup = (group: string) => group === '' || !group.includes('.') || group.endsWith('.k8s.io');

/**
 * One health word per object, the same in the topology, the timeline, the dashboard and the tables; cheap for
 * built-in kinds (the topology asks it of every pod).
 */
export function healthOf(object: KubeObject): Health {
  return builtInHealth(object) ?? healthWhy(object).health;
}

/**
 * An object's health with why (ADR 0126): an ecosystem kind by its project's rules (matched by group and kind: a
 * Knative `Service` is not a core Service), a built-in kind by its own rule (the word only), any other custom
 * resource by the shared conventions.
 */
export function healthWhy(object: KubeObject): HealthWhy {
  const group = groupOf(object.apiVersion);
  const integration = integrationOf(group, object.kind ?? '');
  if (integration) return integrationHealth(integration.id, object) ?? conventionHealth(object);
  const builtIn = builtInHealth(object);
  return builtIn ? verdict(builtIn) : conventionHealth(object);
}

/** Argo CD's Application keeps its own health word; kinds of Kubernetes' groups have a rule each. */
function builtInHealth(object: KubeObject): Health | undefined {
  const group = groupOf(object.apiVersion);
  const status = (object.status ?? {}) as Obj;
  if (object.kind === 'Application' && (group === 'argoproj.io' || group === ''))
    return applicationHealth[String((status.health as Obj | undefined)?.status)] ?? 'unknown';
  if (!builtInGroup(group)) return undefined;
  const spec = (object.spec ?? {}) as Obj;
  switch (object.kind) {
    case 'Pod': {
      // One definition of failing for every count (ADR 0057).
      if (isFailingPod(object)) return 'unhealthy';
      if (status.phase === 'Succeeded') return 'healthy';
      if (status.phase === 'Running') return condition(object, 'Ready') === 'True' ? 'healthy' : 'degraded';
      return status.phase === 'Pending' ? 'degraded' : 'unknown';
    }
    case 'Deployment':
    case 'StatefulSet':
    case 'ReplicaSet':
      return replicaHealth(typeof spec.replicas === 'number' ? spec.replicas : 1, num(status.readyReplicas));
    case 'DaemonSet':
      return replicaHealth(num(status.desiredNumberScheduled), num(status.numberReady));
    case 'Job':
      if (condition(object, 'Failed') === 'True') return 'unhealthy';
      return condition(object, 'Complete') === 'True' || num(status.active) > 0 ? 'healthy' : 'unknown';
    case 'Node':
      return condition(object, 'Ready') === 'True'
        ? spec.unschedulable
          ? 'degraded'
          : 'healthy'
        : 'unhealthy';
    case 'PersistentVolumeClaim':
      return status.phase === 'Bound' ? 'healthy' : status.phase === 'Lost' ? 'unhealthy' : 'degraded';
    case 'Service':
    case 'ConfigMap':
    case 'Secret':
    case 'Ingress':
    case 'CronJob':
    case 'HorizontalPodAutoscaler':
    case 'PodDisruptionBudget':
    case 'Namespace':
      return 'healthy';
    default:
      return undefined;
  }
}
