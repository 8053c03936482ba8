import type { KubeObject } from '@binnacle/common';
import type { Diff, FieldChange } from './types.ts';

type Obj = Record<string, unknown>;
type Fields = Map<string, unknown>;

const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);
const maxValueLength = 300;

function put(fields: Fields, path: string, value: unknown): void {
  if (value !== undefined) fields.set(path, value);
}

function containers(fields: Fields, prefix: string, podSpec: unknown): void {
  for (const c of list(obj(podSpec).containers)) {
    put(fields, `${prefix}.containers[${c.name}].image`, c.image);
    put(
      fields,
      `${prefix}.containers[${c.name}].resources`,
      c.resources && Object.keys(obj(c.resources)).length ? c.resources : undefined,
    );
  }
}

function conditionFields(fields: Fields, o: KubeObject): void {
  for (const c of list(o.status?.conditions)) put(fields, `status.conditions[${c.type}]`, c.status);
}

function replicated(fields: Fields, o: KubeObject): void {
  put(fields, 'spec.replicas', o.spec?.replicas);
  put(fields, 'spec.paused', o.spec?.paused);
  containers(fields, 'spec.template.spec', obj(o.spec?.template).spec);
  for (const key of ['readyReplicas', 'availableReplicas', 'updatedReplicas'])
    put(fields, `status.${key}`, o.status?.[key] ?? 0);
  conditionFields(fields, o);
}

function dataKeys(fields: Fields, o: KubeObject): void {
  for (const section of ['data', 'binaryData', 'stringData']) {
    for (const [key, value] of Object.entries(obj(o[section]))) {
      // Values are compared through a fingerprint and never kept.
      put(fields, `${section}.${key}`, `${String(value).length}:${hash(String(value))}`);
    }
  }
}

function hash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i += 1) h = (Math.imul(31, h) + text.charCodeAt(i)) | 0;
  return h;
}

/** Per kind: the fields whose change is worth a timeline line. Volatile fields (heartbeats, resourceVersion) never are. */
const extractors: Record<string, (fields: Fields, o: KubeObject) => void> = {
  Deployment: replicated,
  StatefulSet: replicated,
  ReplicaSet: replicated,
  DaemonSet: (fields, o) => {
    containers(fields, 'spec.template.spec', obj(o.spec?.template).spec);
    for (const key of ['desiredNumberScheduled', 'numberReady', 'updatedNumberScheduled'])
      put(fields, `status.${key}`, o.status?.[key] ?? 0);
  },
  Pod: (fields, o) => {
    put(fields, 'status.phase', o.status?.phase);
    put(fields, 'spec.nodeName', o.spec?.nodeName);
    put(fields, 'status.podIP', o.status?.podIP);
    containers(fields, 'spec', o.spec);
    for (const c of list(o.status?.containerStatuses)) {
      put(fields, `status.containerStatuses[${c.name}].restartCount`, c.restartCount);
      const state = obj(c.state);
      const [phase] = Object.keys(state);
      put(
        fields,
        `status.containerStatuses[${c.name}].state`,
        phase ? `${phase}${obj(state[phase]).reason ? `:${obj(state[phase]).reason}` : ''}` : undefined,
      );
    }
    conditionFields(fields, o);
  },
  Service: (fields, o) => {
    for (const key of ['type', 'ports', 'selector', 'externalIPs']) put(fields, `spec.${key}`, o.spec?.[key]);
    put(fields, 'status.loadBalancer.ingress', obj(o.status?.loadBalancer).ingress);
  },
  Ingress: (fields, o) => {
    for (const key of ['rules', 'tls', 'defaultBackend', 'ingressClassName'])
      put(fields, `spec.${key}`, o.spec?.[key]);
    put(fields, 'status.loadBalancer.ingress', obj(o.status?.loadBalancer).ingress);
  },
  ConfigMap: dataKeys,
  Secret: (fields, o) => {
    put(fields, 'type', o.type);
    dataKeys(fields, o);
  },
  HorizontalPodAutoscaler: (fields, o) => {
    for (const key of ['minReplicas', 'maxReplicas', 'metrics']) put(fields, `spec.${key}`, o.spec?.[key]);
    for (const key of ['currentReplicas', 'desiredReplicas']) put(fields, `status.${key}`, o.status?.[key]);
  },
  Job: (fields, o) => {
    for (const key of ['active', 'succeeded', 'failed']) put(fields, `status.${key}`, o.status?.[key] ?? 0);
    put(fields, 'spec.suspend', o.spec?.suspend);
    conditionFields(fields, o);
  },
  CronJob: (fields, o) => {
    for (const key of ['schedule', 'suspend', 'timeZone']) put(fields, `spec.${key}`, o.spec?.[key]);
    containers(
      fields,
      'spec.jobTemplate.spec.template.spec',
      obj(obj(obj(o.spec?.jobTemplate).spec).template).spec,
    );
  },
  Node: (fields, o) => {
    put(fields, 'spec.unschedulable', o.spec?.unschedulable ?? false);
    put(fields, 'spec.taints', o.spec?.taints);
    for (const c of list(o.status?.conditions)) put(fields, `status.conditions[${c.type}]`, c.status);
    put(fields, 'status.nodeInfo.kubeletVersion', obj(o.status?.nodeInfo).kubeletVersion);
  },
  PersistentVolumeClaim: (fields, o) => {
    put(fields, 'status.phase', o.status?.phase);
    put(fields, 'spec.volumeName', o.spec?.volumeName);
    put(fields, 'spec.resources.requests.storage', obj(obj(o.spec?.resources).requests).storage);
  },
  Event: () => {},
};

/** Kinds without their own rule: top-level spec fields, phase and conditions. */
function generic(fields: Fields, o: KubeObject): void {
  for (const [key, value] of Object.entries(obj(o.spec))) put(fields, `spec.${key}`, value);
  put(fields, 'status.phase', o.status?.phase);
  conditionFields(fields, o);
}

function extract(o: KubeObject): Fields {
  const fields: Fields = new Map();
  (extractors[o.kind ?? ''] ?? generic)(fields, o);
  put(fields, 'metadata.labels', o.metadata?.labels);
  return fields;
}

const shown = (value: unknown): unknown => {
  if (value === undefined || value === null || typeof value === 'number' || typeof value === 'boolean')
    return value;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text.length <= maxValueLength) return value;
  return `${text.slice(0, maxValueLength)}…`;
};
const hidden = (path: string, kind: string) =>
  (kind === 'Secret' || kind === 'ConfigMap') && /^(data|binaryData|stringData)\./.test(path);
const label = (path: string) => path.replace(/^(spec\.template\.spec\.|spec\.|status\.)/, '');
const brief = (value: unknown) =>
  value === undefined ? '∅' : typeof value === 'string' ? value : JSON.stringify(value);

function summarize(kind: string, changes: FieldChange[]): string {
  const parts = changes.slice(0, 3).map((c) => {
    if (hidden(c.path, kind))
      return `${c.path} ${c.old === undefined ? 'added' : c.new === undefined ? 'removed' : 'changed'}`;
    const text = `${label(c.path)} ${brief(c.old)} → ${brief(c.new)}`;
    return text.length > 120 ? `${label(c.path)} changed` : text;
  });
  return changes.length > 3 ? `${parts.join('; ')} (+${changes.length - 3} more)` : parts.join('; ');
}

/**
 * The changes between two versions of an object that a person cares about, or undefined when there are none
 * (a status heartbeat, a resourceVersion bump). Secret and ConfigMap values never appear, only their keys.
 */
export function computeDiff(old: KubeObject, next: KubeObject): Diff | undefined {
  const before = extract(old);
  const after = extract(next);
  const changes: FieldChange[] = [];
  for (const path of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(path);
    const b = after.get(path);
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    if (!hidden(path, next.kind ?? '')) changes.push({ path, old: shown(a), new: shown(b) });
    else if (a === undefined) changes.push({ path, new: '(added)' });
    else if (b === undefined) changes.push({ path, old: '(removed)' });
    else changes.push({ path, old: '(value)', new: '(changed)' });
  }
  if (changes.length === 0) return undefined;
  return { fields: changes, summary: summarize(next.kind ?? '', changes) };
}
