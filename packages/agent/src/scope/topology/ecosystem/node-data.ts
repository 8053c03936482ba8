import { groupOf, type KubeObject } from '@binnacle/common';
import { list, type Obj, obj } from '../node-data.ts';

const strings = (v: unknown) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

/** The namespaces a Velero Backup or Restore covers: all (`*`) unless it names some, less those it excludes. */
function coveredNamespaces(spec: Obj) {
  const included = strings(spec.includedNamespaces);
  return {
    namespaces: included.length > 0 ? included : ['*'],
    excludedNamespaces: strings(spec.excludedNamespaces),
  };
}

type Describe = (spec: Obj, status: Obj, o: KubeObject) => Record<string, unknown>;

/** What a node of an ecosystem kind shows beside its health, by `group/kind` (docs/topology.md). */
const describe: Record<string, Describe> = {
  'gateway.networking.k8s.io/GatewayClass': (spec) => ({ controller: spec.controllerName }),
  'cert-manager.io/Certificate': (spec, status) => ({
    secretName: spec.secretName,
    dnsNames: strings(spec.dnsNames),
    notAfter: status.notAfter,
    renewalTime: status.renewalTime,
  }),
  'cert-manager.io/Issuer': (spec) => ({ type: Object.keys(spec)[0] }),
  'cert-manager.io/ClusterIssuer': (spec) => ({ type: Object.keys(spec)[0] }),
  'acme.cert-manager.io/Order': (_spec, status) => ({ state: status.state }),
  'acme.cert-manager.io/Challenge': (spec, status) => ({ type: spec.type, state: status.state }),
  'keda.sh/ScaledObject': (spec, _status, o) => ({
    min: spec.minReplicaCount ?? 0,
    max: spec.maxReplicaCount ?? 100,
    triggers: list(spec.triggers).map((t) => t.type),
    paused: o.metadata?.annotations?.['autoscaling.keda.sh/paused'] === 'true',
  }),
  'keda.sh/ScaledJob': (spec) => ({ triggers: list(spec.triggers).map((t) => t.type) }),
  'karpenter.sh/NodePool': (_spec, status) => ({ nodes: obj(status.resources).nodes }),
  'karpenter.sh/NodeClaim': (_spec, status, o) => ({
    node: status.nodeName,
    instanceType: o.metadata?.labels?.['node.kubernetes.io/instance-type'],
  }),
  'serving.knative.dev/Service': (_spec, status) => ({ url: status.url }),
  'serving.knative.dev/Route': (_spec, status) => ({
    url: status.url,
    traffic: list(status.traffic).map((t) => ({ revision: t.revisionName, percent: t.percent })),
  }),
  'velero.io/Backup': (spec, status) => ({ phase: status.phase, ...coveredNamespaces(spec) }),
  'velero.io/Restore': (spec, status) => ({
    phase: status.phase,
    backup: spec.backupName,
    ...coveredNamespaces(spec),
  }),
  'velero.io/Schedule': (spec, status) => ({
    schedule: spec.schedule,
    paused: spec.paused === true,
    phase: status.phase,
    lastBackup: status.lastBackup,
    ...coveredNamespaces(obj(spec.template)),
  }),
  'velero.io/BackupStorageLocation': (spec, status) => ({ provider: spec.provider, phase: status.phase }),
  'postgresql.cnpg.io/Cluster': (spec, status) => ({
    instances: spec.instances,
    ready: status.readyInstances ?? 0,
    primary: status.currentPrimary,
    phase: status.phase,
  }),
  'postgresql.cnpg.io/Backup': (spec, status) => ({ cluster: obj(spec.cluster).name, phase: status.phase }),
  'postgresql.cnpg.io/ScheduledBackup': (spec) => ({
    schedule: spec.schedule,
    cluster: obj(spec.cluster).name,
  }),
  'networking.istio.io/VirtualService': (spec) => ({
    hosts: strings(spec.hosts),
    gateways: strings(spec.gateways),
  }),
  'wgpolicyk8s.io/PolicyReport': (_spec, _status, o) => ({ summary: obj((o as Obj).summary) }),
  'wgpolicyk8s.io/ClusterPolicyReport': (_spec, _status, o) => ({ summary: obj((o as Obj).summary) }),
};

export function ecosystemData(o: KubeObject): Record<string, unknown> {
  const of = describe[`${groupOf(o.apiVersion)}/${o.kind ?? ''}`];
  if (!of) return {};
  return Object.fromEntries(
    Object.entries(of(obj(o.spec), obj(o.status), o)).filter(([, value]) => value !== undefined),
  );
}
