import type { KubeObject } from '@binnacle/common';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' ? (value as Json) : {});
const arr = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
const pick = (source: unknown, keys: string[]): Json => {
  const from = obj(source);
  const out: Json = {};
  for (const key of keys) if (from[key] !== undefined) out[key] = from[key];
  return out;
};

const metadataKeys = [
  'name',
  'namespace',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'labels',
  'ownerReferences',
];
const containerSummary = (c: Json) => pick(c, ['name', 'image', 'ports', 'resources']);
const podTemplate = (spec: unknown) => {
  const template = obj(obj(spec).template);
  return {
    metadata: pick(template.metadata, ['labels']),
    spec: { containers: arr(obj(template.spec).containers).map((c) => pick(c, ['name', 'image'])) },
  };
};

/** Per kind: which parts of spec and status a list view needs. Other kinds keep spec and status whole. */
const projections: Record<string, (o: KubeObject) => Json> = {
  Pod: (o) => ({
    spec: {
      ...pick(o.spec, ['nodeName', 'serviceAccountName', 'priorityClassName', 'restartPolicy']),
      containers: arr(o.spec?.containers).map(containerSummary),
      initContainers: arr(o.spec?.initContainers).map((c) => pick(c, ['name', 'image'])),
    },
    status: {
      ...pick(o.status, [
        'phase',
        'reason',
        'message',
        'podIP',
        'hostIP',
        'startTime',
        'qosClass',
        'conditions',
      ]),
      containerStatuses: arr(o.status?.containerStatuses).map((c) =>
        pick(c, ['name', 'ready', 'restartCount', 'state', 'lastState', 'image', 'started']),
      ),
    },
  }),
  Deployment: (o) => ({
    spec: { ...pick(o.spec, ['replicas', 'selector', 'strategy', 'paused']), template: podTemplate(o.spec) },
    status: o.status,
  }),
  StatefulSet: (o) => ({
    spec: { ...pick(o.spec, ['replicas', 'selector', 'serviceName']), template: podTemplate(o.spec) },
    status: o.status,
  }),
  DaemonSet: (o) => ({
    spec: { ...pick(o.spec, ['selector']), template: podTemplate(o.spec) },
    status: o.status,
  }),
  ReplicaSet: (o) => ({
    spec: { ...pick(o.spec, ['replicas', 'selector']), template: podTemplate(o.spec) },
    status: o.status,
  }),
  Job: (o) => ({
    spec: {
      ...pick(o.spec, ['completions', 'parallelism', 'backoffLimit', 'suspend']),
      template: podTemplate(o.spec),
    },
    status: o.status,
  }),
  CronJob: (o) => ({
    spec: pick(o.spec, ['schedule', 'suspend', 'concurrencyPolicy', 'timeZone']),
    status: o.status,
  }),
  Service: (o) => ({
    spec: pick(o.spec, ['type', 'clusterIP', 'externalName', 'ports', 'selector']),
    status: o.status,
  }),
  Node: (o) => ({
    spec: pick(o.spec, ['unschedulable', 'taints', 'podCIDR', 'providerID']),
    status: pick(o.status, ['conditions', 'nodeInfo', 'capacity', 'allocatable', 'addresses']),
  }),
  // Values never travel in list views; the keys are enough to show what is there.
  Secret: (o) => ({ type: o.type, dataKeys: Object.keys(obj(o.data)) }),
  ConfigMap: (o) => ({ dataKeys: [...Object.keys(obj(o.data)), ...Object.keys(obj(o.binaryData))] }),
};

/**
 * The `summary` projection of a list: identifying metadata (no annotations) plus the fields a table shows.
 * ConfigMaps and Secrets carry `dataKeys` instead of their data.
 */
export function summarize(object: KubeObject): KubeObject {
  const base: KubeObject = {
    apiVersion: object.apiVersion,
    kind: object.kind,
    metadata: pick(object.metadata, metadataKeys),
  };
  const project = projections[object.kind ?? ''];
  if (project) return { ...base, ...project(object) };
  return { ...base, spec: object.spec, status: object.status };
}
