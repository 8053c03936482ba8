/** Manifests for the checks' tests: a hardened workload that passes every check, and ways to spoil it. */
import type { KubeObject } from '@binnacle/common';
import type { Obj } from './values.ts';

export const now = Date.parse('2026-03-01T12:00:00Z');
export const namespace = 'shop';
export const labels = { app: 'web' };

const hardenedSecurity = {
  runAsNonRoot: true,
  runAsUser: 10001,
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  capabilities: { drop: ['ALL'] },
  seccompProfile: { type: 'RuntimeDefault' },
};

export const hardenedContainer = {
  name: 'app',
  image: 'registry.example/web:1.4.2',
  imagePullPolicy: 'Always',
  securityContext: hardenedSecurity,
  readinessProbe: { httpGet: { path: '/ready', port: 8080 } },
  livenessProbe: { httpGet: { path: '/live', port: 8080 } },
  resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
};

/** The hardened container with some fields replaced. */
export const container = (fields: Obj = {}): Obj => ({ ...hardenedContainer, ...fields });
/** The hardened container with some securityContext fields replaced (undefined removes one). */
export const secure = (fields: Obj, name = 'app'): Obj =>
  container({ name, securityContext: { ...hardenedSecurity, ...fields } });

export const hardenedPodSpec = {
  containers: [hardenedContainer],
  automountServiceAccountToken: false,
  priorityClassName: 'business-critical',
  topologySpreadConstraints: [
    {
      maxSkew: 1,
      topologyKey: 'kubernetes.io/hostname',
      whenUnsatisfiable: 'ScheduleAnyway',
      labelSelector: { matchLabels: labels },
    },
  ],
};

const meta = (name: string, extra: Obj = {}) => ({
  name,
  namespace,
  labels: { 'app.kubernetes.io/instance': name, ...labels },
  ...extra,
});

/** A Pod with the hardened spec, some pod-spec fields replaced. */
export const pod = (spec: Obj = {}, metadata: Obj = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: meta('web', metadata),
  spec: { ...hardenedPodSpec, ...spec },
});

/** A running, ready pod of the `web` workload on a node. */
export const readyPod = (name: string, node: string, extra: Obj = {}): KubeObject => ({
  ...pod({ nodeName: node }, { name, labels }),
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  ...extra,
});

export interface WorkloadOptions {
  name?: string;
  replicas?: number;
  metadata?: Obj;
  templateMetadata?: Obj;
}

/** A workload of any kind with the hardened pod spec, some pod-spec fields replaced. */
export function workload(kind: string, spec: Obj = {}, options: WorkloadOptions = {}): KubeObject {
  const template = {
    metadata: { labels, ...options.templateMetadata },
    spec: { ...hardenedPodSpec, ...spec },
  };
  const apiVersion =
    kind === 'Job' || kind === 'CronJob' ? 'batch/v1' : kind === 'ReplicationController' ? 'v1' : 'apps/v1';
  const body =
    kind === 'CronJob'
      ? { schedule: '*/5 * * * *', jobTemplate: { spec: { template } } }
      : { replicas: options.replicas ?? 3, selector: { matchLabels: labels }, template };
  return { apiVersion, kind, metadata: meta(options.name ?? 'web', options.metadata), spec: body };
}

export const deployment = (spec: Obj = {}, options: WorkloadOptions = {}) =>
  workload('Deployment', spec, options);

/** Any other object in the namespace. */
export const object = (apiVersion: string, kind: string, name: string, fields: Obj = {}): KubeObject => ({
  apiVersion,
  kind,
  metadata: { name, namespace },
  ...fields,
});

export const pdb = (spec: Obj, status: Obj = {}) =>
  object('policy/v1', 'PodDisruptionBudget', 'web', {
    spec: { selector: { matchLabels: labels }, ...spec },
    status,
  });

export const hpa = (minReplicas: number | undefined, maxReplicas: number, target = 'web') =>
  object('autoscaling/v2', 'HorizontalPodAutoscaler', target, {
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: target },
      minReplicas,
      maxReplicas,
    },
  });

export const networkPolicy = (spec: Obj) => object('networking.k8s.io/v1', 'NetworkPolicy', 'web', { spec });

export const ingress = (spec: Obj) => object('networking.k8s.io/v1', 'Ingress', 'web', { spec });

export const service = (name: string, selector: Obj | undefined = labels, type = 'ClusterIP') =>
  object('v1', 'Service', name, { spec: { type, selector, ports: [{ port: 80 }] } });
