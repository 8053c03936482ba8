import type { KubeObject } from '@binnacle/common';
import { mapSelectorMatcher, selectorMatcher } from '../../../kube/selectors.ts';
import type { ContainerUsage } from '../../metrics/usage.ts';
import { podRefs } from '../../topology/pod-refs.ts';
import { podSpecOf } from './pod-spec.ts';
import type { AuditContext, IndexedKind } from './types.ts';
import { list, nameOf, namespaceOf, obj, str } from './values.ts';

/** One pod's metrics as the metrics feature keeps them (a `Sample`'s identifying part and containers). */
export interface PodMetrics {
  name: string;
  namespace?: string;
  containers?: readonly ContainerUsage[];
}

export interface AuditContextOptions {
  /** When the snapshot is judged (ms since the epoch); stuck deletions are measured from it. */
  now: number;
  /** The group/versions discovery lists (`v1`, `apps/v1`); leave out when discovery was not read. */
  servedApiVersions?: Iterable<string>;
  /** Pod metrics from metrics.k8s.io, when the cluster has a metrics server. */
  podMetrics?: Iterable<PodMetrics>;
}

const indexedKinds: ReadonlySet<string> = new Set<IndexedKind>([
  'Pod',
  'PodDisruptionBudget',
  'HorizontalPodAutoscaler',
  'Service',
  'Ingress',
  'NetworkPolicy',
  'ServiceAccount',
  'Role',
  'ClusterRole',
]);

const key = (...parts: string[]) => parts.join('/');

/** Adds to a map of arrays. */
function push<T>(map: Map<string, T[]>, at: string, value: T) {
  const values = map.get(at);
  if (values) values.push(value);
  else map.set(at, [value]);
}

/** What reads a ConfigMap or Secret: pod specs, Ingress TLS, ServiceAccounts' secrets and pull secrets. */
function referencesOf(object: KubeObject): { configMaps: string[]; secrets: string[] } {
  const spec = podSpecOf(object);
  if (spec) {
    const refs = podRefs(spec);
    const pullSecrets = list(spec.imagePullSecrets).map((s) => str(s.name));
    return {
      configMaps: [...refs.configMaps],
      secrets: [...refs.secrets, ...pullSecrets].filter((s) => s !== undefined),
    };
  }
  if (object.kind === 'Ingress')
    return {
      configMaps: [],
      secrets: list(obj(object.spec).tls).flatMap((tls) => str(tls.secretName) ?? []),
    };
  if (object.kind === 'ServiceAccount')
    return {
      configMaps: [],
      secrets: [...list(object.secrets), ...list(object.imagePullSecrets)].flatMap((s) => str(s.name) ?? []),
    };
  return { configMaps: [], secrets: [] };
}

/** The selector a workload finds its pods with (ReplicationControllers use a plain map). */
function workloadMatcher(workload: KubeObject) {
  const selector = obj(workload.spec).selector;
  return workload.kind === 'ReplicationController'
    ? mapSelectorMatcher(selector as Record<string, string> | undefined)
    : selectorMatcher(selector as Parameters<typeof selectorMatcher>[0]);
}

/** Builds the lookups for one snapshot of the cluster: one pass over the objects, then every lookup is a map read. */
export function createAuditContext(
  objects: Iterable<KubeObject>,
  options: AuditContextOptions,
): AuditContext {
  const byNamespace = new Map<string, KubeObject[]>();
  const byName = new Map<string, KubeObject>();
  const children = new Map<string, KubeObject[]>();
  const referenced = new Set<string>();
  for (const object of objects) {
    const kind = object.kind ?? '';
    const namespace = namespaceOf(object);
    if (indexedKinds.has(kind)) {
      push(byNamespace, key(kind, namespace), object);
      byName.set(key(kind, namespace, nameOf(object)), object);
    }
    for (const owner of object.metadata?.ownerReferences ?? []) push(children, owner.uid, object);
    const refs = referencesOf(object);
    for (const name of refs.configMaps) referenced.add(key('ConfigMap', namespace, name));
    for (const name of refs.secrets) referenced.add(key('Secret', namespace, name));
  }
  const usage = new Map<string, readonly ContainerUsage[]>();
  for (const metrics of options.podMetrics ?? [])
    usage.set(key(metrics.namespace ?? '', metrics.name), metrics.containers ?? []);

  const list = (kind: IndexedKind, namespace: string) => byNamespace.get(key(kind, namespace)) ?? [];
  /** Pods below an owner: its own, and its ReplicaSets' or Jobs' (Deployments, CronJobs). */
  const descendantPods = (uid: string, depth: number): KubeObject[] =>
    (children.get(uid) ?? []).flatMap((child) => {
      if (child.kind === 'Pod') return [child];
      const childUid = child.metadata?.uid;
      return depth > 0 && childUid ? descendantPods(childUid, depth - 1) : [];
    });

  return {
    now: options.now,
    list,
    get: (kind, namespace, name) => byName.get(key(kind, namespace, name)),
    podsOf(workload) {
      if (workload.kind === 'Pod') return [workload];
      const uid = workload.metadata?.uid;
      if (uid) return descendantPods(uid, 1);
      const matches = workloadMatcher(workload);
      return list('Pod', namespaceOf(workload)).filter((pod) => matches(pod.metadata?.labels));
    },
    isReferenced: (kind, namespace, name) => referenced.has(key(kind, namespace, name)),
    servedApiVersions: options.servedApiVersions ? new Set(options.servedApiVersions) : undefined,
    podUsage: (namespace, name) => usage.get(key(namespace, name)),
  };
}
