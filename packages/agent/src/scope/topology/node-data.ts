import { groupOf, type KubeObject, topologyKindName, topologyNodeId } from '@binnacle/common';
import { type Health, healthOf } from '../../kube/health.ts';

export type Obj = Record<string, unknown>;
export const obj = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {});
export const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);
export const ns = (o: KubeObject) => o.metadata?.namespace;
export const nameOf = (o: KubeObject) => o.metadata?.name ?? '';
/** The node id of an object: its kind named by `topologyKindName` (ADR 0128). */
export const idOf = (o: KubeObject) => topologyNodeId(groupOf(o.apiVersion), o.kind ?? '', ns(o), nameOf(o));
/** Whether the topology names the object's kind `Kind.group`: an ecosystem kind, whose name may collide. */
export const qualified = (o: KubeObject) => topologyKindName(groupOf(o.apiVersion), o.kind ?? '') !== o.kind;
export const controllerOf = (o: KubeObject) =>
  o.metadata?.ownerReferences?.find((r) => r.controller) ?? o.metadata?.ownerReferences?.[0];

/** The pod template of a workload (CronJobs keep theirs inside the job template). */
export function template(o: KubeObject): Obj {
  if (o.kind === 'CronJob') return obj(obj(obj(o.spec?.jobTemplate).spec).template);
  return obj(o.spec?.template);
}

export function dataOf(o: KubeObject): Record<string, unknown> {
  const spec = obj(o.spec);
  const status = obj(o.status);
  const images = list(obj(template(o).spec).containers).map((c) => c.image);
  switch (o.kind) {
    case 'Deployment':
    case 'StatefulSet':
    case 'ReplicaSet':
      return { replicas: spec.replicas ?? 1, ready: status.readyReplicas ?? 0, images };
    case 'DaemonSet':
      return { desired: status.desiredNumberScheduled ?? 0, ready: status.numberReady ?? 0, images };
    case 'CronJob':
      return { schedule: spec.schedule, suspend: spec.suspend ?? false, images };
    case 'Job':
      return { succeeded: status.succeeded ?? 0, failed: status.failed ?? 0, active: status.active ?? 0 };
    case 'Pod':
      return {
        phase: status.phase,
        node: spec.nodeName,
        restarts: list(status.containerStatuses).reduce((sum, c) => sum + Number(c.restartCount ?? 0), 0),
        images: list(spec.containers).map((c) => c.image),
      };
    case 'Service':
      return {
        type: spec.type ?? 'ClusterIP',
        clusterIP: spec.clusterIP,
        ports: list(spec.ports).map((p) => p.port),
      };
    case 'Ingress':
      return {
        hosts: list(spec.rules)
          .map((r) => r.host)
          .filter(Boolean),
        className: spec.ingressClassName,
      };
    case 'ConfigMap':
    case 'Secret':
      return { keys: Object.keys(obj(o.data)).length };
    case 'PersistentVolumeClaim':
      return {
        phase: status.phase,
        storage: obj(obj(spec.resources).requests).storage,
        storageClass: spec.storageClassName,
      };
    case 'HorizontalPodAutoscaler':
      return { min: spec.minReplicas ?? 1, max: spec.maxReplicas, current: status.currentReplicas };
    case 'Application':
      return {
        sync: obj(status.sync).status,
        health: obj(status.health).status,
        revision: obj(status.sync).revision,
        automated: obj(spec.syncPolicy).automated !== undefined,
      };
    case 'Kustomization':
    case 'HelmRelease':
      return {
        suspended: spec.suspend === true,
        revision: status.lastAppliedRevision ?? status.lastAttemptedRevision,
      };
    default:
      return {};
  }
}

/** What reads on a workload's behalf: pods (and pod groups) read their own spec, workloads their template's. */
const podLike = (w: KubeObject) => w.kind === 'Pod' || w.kind === 'PodGroup';
export const readerSpec = (w: KubeObject) => (podLike(w) ? w.spec : template(w).spec);
export const readerLabels = (w: KubeObject) =>
  podLike(w) ? w.metadata?.labels : (obj(template(w).metadata).labels as Record<string, string> | undefined);

/** How many of the objects are in each health, and the worst of them (unknown counts as healthy). */
export function healthSummary(objects: KubeObject[]): { counts: Record<Health, number>; status: Health } {
  const counts: Record<Health, number> = { healthy: 0, degraded: 0, unhealthy: 0, unknown: 0 };
  for (const object of objects) counts[healthOf(object)] += 1;
  const status: Health = counts.unhealthy > 0 ? 'unhealthy' : counts.degraded > 0 ? 'degraded' : 'healthy';
  return { counts, status };
}
