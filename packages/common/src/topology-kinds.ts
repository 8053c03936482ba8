/**
 * The built-in kinds that own pods, directly or through another (a Deployment through its ReplicaSets), with
 * their API groups: what the metrics routes roll pods up to and what the topology draws above pods.
 */
export const podOwnerGroups = {
  Deployment: 'apps',
  ReplicaSet: 'apps',
  StatefulSet: 'apps',
  DaemonSet: 'apps',
  Job: 'batch',
  CronJob: 'batch',
} as const;

/**
 * How the topology names a kind in its node ids (ADR 0128). The kinds it drew before the ecosystem's custom
 * resources keep their bare Kind (`deployment/shop/web`); any other kind is named `Kind.group`
 * (`service.serving.knative.dev/shop/hello`), since custom resources reuse the built-ins' names and each other's
 * (Knative's `Service`, Velero's and CloudNativePG's `Backup`). `Kind.group` is also what an object page's address
 * takes, so a node's link and the page's lookup of its node agree.
 */
export const bareTopologyKinds = {
  ...podOwnerGroups,
  Pod: '',
  Service: '',
  Ingress: 'networking.k8s.io',
  ConfigMap: '',
  Secret: '',
  PersistentVolumeClaim: '',
  Node: '',
  HorizontalPodAutoscaler: 'autoscaling',
  PodDisruptionBudget: 'policy',
  Gateway: 'gateway.networking.k8s.io',
  HTTPRoute: 'gateway.networking.k8s.io',
  GRPCRoute: 'gateway.networking.k8s.io',
  Application: 'argoproj.io',
  Kustomization: 'kustomize.toolkit.fluxcd.io',
  HelmRelease: 'helm.toolkit.fluxcd.io',
} as const;
const bareGroups: Readonly<Record<string, string>> = bareTopologyKinds;

/**
 * The kind's name in node ids and object addresses: bare for the kinds above (and for an object that names no
 * group), `Kind.group` for any other.
 */
export const topologyKindName = (group: string, kind: string) =>
  group === '' || bareGroups[kind] === group ? kind : `${kind}.${group}`;

/** A node's id: `<kind name in lower case>/<namespace>/<name>`, cluster-scoped objects without the namespace. */
export const topologyNodeId = (group: string, kind: string, namespace: string | undefined, name: string) => {
  const kindName = topologyKindName(group, kind).toLowerCase();
  return namespace ? `${kindName}/${namespace}/${name}` : `${kindName}/${name}`;
};
