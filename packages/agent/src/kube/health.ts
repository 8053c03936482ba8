import { isFailingPod, type KubeObject } from '@binnacle/common';

export type Health = 'healthy' | 'degraded' | 'unhealthy' | 'unknown';

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

/** One health word per object, the same in the topology, the timeline and the dashboard. */
export function healthOf(object: KubeObject): Health {
  const status = (object.status ?? {}) as Obj;
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
    case 'Application':
      return applicationHealth[String((status.health as Obj | undefined)?.status)] ?? 'unknown';
    default: {
      const ready = condition(object, 'Ready');
      if (ready === 'True') return 'healthy';
      if (ready === 'False') return 'unhealthy';
      return 'unknown';
    }
  }
}
