import type { KubeObject } from '@binnacle/common';
import { kubectlDuration } from '@binnacle/common/tables';
import { type HealthWhy, healthWhy } from './health.ts';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);
const num = (v: unknown) => (typeof v === 'number' ? v : 0);

/** Age as kubectl prints it (`45s`, `5m30s`, `3h`, `9d`). */
function ageOf(object: KubeObject, now: number): string {
  const created = Date.parse(object.metadata?.creationTimestamp ?? '');
  return Number.isNaN(created) ? '?' : kubectlDuration(Math.max(0, now - created));
}

function podFacts(pod: KubeObject): string[] {
  const statuses = arr(pod.status?.containerStatuses);
  const ready = statuses.filter((c) => c.ready === true).length;
  const restarts = statuses.reduce((sum, c) => sum + num(c.restartCount), 0);
  const waiting = statuses
    .map((c) => obj(obj(c.state).waiting).reason)
    .find((reason): reason is string => typeof reason === 'string');
  return [
    String(pod.status?.phase ?? 'Unknown'),
    ...(waiting ? [waiting] : []),
    `${ready}/${statuses.length || arr(pod.spec?.containers).length} ready`,
    `${restarts} restarts`,
    ...(pod.spec?.nodeName ? [`node ${String(pod.spec.nodeName)}`] : []),
  ];
}

/** Per kind: the few facts an engineer reads first. */
const facts: Record<string, (o: KubeObject) => string[]> = {
  Pod: podFacts,
  Deployment: (o) => [
    `${num(o.status?.readyReplicas)}/${num(o.spec?.replicas ?? 1)} ready`,
    `${num(o.status?.updatedReplicas)} up to date`,
  ],
  StatefulSet: (o) => [`${num(o.status?.readyReplicas)}/${num(o.spec?.replicas ?? 1)} ready`],
  ReplicaSet: (o) => [`${num(o.status?.readyReplicas)}/${num(o.spec?.replicas ?? 1)} ready`],
  DaemonSet: (o) => [`${num(o.status?.numberReady)}/${num(o.status?.desiredNumberScheduled)} ready`],
  Job: (o) => [
    `${num(o.status?.succeeded)} succeeded`,
    `${num(o.status?.failed)} failed`,
    `${num(o.status?.active)} active`,
  ],
  CronJob: (o) => [
    `schedule ${String(o.spec?.schedule ?? '?')}`,
    ...(o.spec?.suspend === true ? ['suspended'] : []),
    ...(o.status?.lastScheduleTime ? [`last ${String(o.status.lastScheduleTime)}`] : []),
  ],
  Service: (o) => [
    String(o.spec?.type ?? 'ClusterIP'),
    ...(o.spec?.clusterIP ? [String(o.spec.clusterIP)] : []),
    `ports ${
      arr(o.spec?.ports)
        .map((p) => `${String(p.port)}/${String(p.protocol ?? 'TCP')}`)
        .join(',') || 'none'
    }`,
  ],
  Node: (o) => {
    const ready = arr(o.status?.conditions).find((c) => c.type === 'Ready');
    return [
      ready?.status === 'True' ? 'Ready' : 'NotReady',
      ...(o.spec?.unschedulable === true ? ['cordoned'] : []),
      String(obj(obj(o.status).nodeInfo).kubeletVersion ?? ''),
    ].filter(Boolean);
  },
  PersistentVolumeClaim: (o) =>
    [String(o.status?.phase ?? 'Unknown'), String(obj(obj(o.spec?.resources).requests).storage ?? '')].filter(
      Boolean,
    ),
  Secret: (o) => [String(o.type ?? 'Opaque'), `${Object.keys(obj(o.data)).length} keys`],
  ConfigMap: (o) => [`${Object.keys(obj(o.data)).length + Object.keys(obj(o.binaryData)).length} keys`],
};

/** A line's health: the word, and for what is not healthy what decided it (ADR 0126), its message kept short. */
function healthText(why: HealthWhy): string {
  if (why.health === 'healthy' || !why.reason) return why.health;
  const message = why.message && why.message.length > 200 ? `${why.message.slice(0, 200)}…` : why.message;
  return `${why.health}: ${[why.from, why.reason].filter(Boolean).join(' ')}${message ? ` — ${message}` : ''}`;
}

/**
 * One line: `Pod shop/web-1: Running, 1/1 ready, 0 restarts, node n1 (healthy, 3h)`. It prints what it is given:
 * a caller that shows it to someone redacts the object first.
 */
export function compactLine(object: KubeObject, now: number): string {
  const namespace = object.metadata?.namespace;
  const name = `${namespace ? `${namespace}/` : ''}${object.metadata?.name ?? ''}`;
  const shown = facts[object.kind ?? '']?.(object) ?? [];
  const tail = `(${healthText(healthWhy(object))}, ${ageOf(object, now)})`;
  return `${object.kind ?? ''} ${name}: ${[...shown].join(', ')}${shown.length > 0 ? ' ' : ''}${tail}`;
}
