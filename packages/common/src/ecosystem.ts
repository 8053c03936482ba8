/**
 * The ecosystem projects whose custom resources Binnacle understands beyond the generic conventions (ADR 0126):
 * their kinds, read by the health rules, the topology's edges, the tables' columns, the actions and the web's
 * object pages. A kind is named by its API group and kind together: several projects reuse a kind's name
 * (Knative's `Service`, Velero's and CloudNativePG's `Backup`, Istio's `Gateway`).
 */
export interface EcosystemKind {
  group: string;
  kind: string;
  namespaced: boolean;
}

export interface Integration {
  /** The docs page is `docs/integrations/<id>.md`. */
  id: string;
  title: string;
  kinds: readonly EcosystemKind[];
}

const namespaced = (group: string, ...kinds: string[]) =>
  kinds.map((kind) => ({ group, kind, namespaced: true }));
const clusterScoped = (group: string, ...kinds: string[]) =>
  kinds.map((kind) => ({ group, kind, namespaced: false }));

export const integrations: readonly Integration[] = [
  {
    id: 'gateway-api',
    title: 'Gateway API',
    kinds: [
      ...clusterScoped('gateway.networking.k8s.io', 'GatewayClass'),
      ...namespaced('gateway.networking.k8s.io', 'Gateway', 'HTTPRoute', 'GRPCRoute', 'ReferenceGrant'),
    ],
  },
  {
    id: 'cert-manager',
    title: 'cert-manager',
    kinds: [
      ...namespaced('cert-manager.io', 'Certificate', 'CertificateRequest', 'Issuer'),
      ...clusterScoped('cert-manager.io', 'ClusterIssuer'),
      ...namespaced('acme.cert-manager.io', 'Order', 'Challenge'),
    ],
  },
  {
    id: 'keda',
    title: 'KEDA',
    kinds: [
      ...namespaced('keda.sh', 'ScaledObject', 'ScaledJob', 'TriggerAuthentication'),
      ...clusterScoped('keda.sh', 'ClusterTriggerAuthentication'),
    ],
  },
  { id: 'karpenter', title: 'Karpenter', kinds: clusterScoped('karpenter.sh', 'NodePool', 'NodeClaim') },
  {
    id: 'knative',
    title: 'Knative Serving',
    kinds: namespaced('serving.knative.dev', 'Service', 'Configuration', 'Revision', 'Route'),
  },
  {
    id: 'crossplane',
    title: 'Crossplane',
    kinds: clusterScoped('apiextensions.crossplane.io', 'CompositeResourceDefinition', 'Composition'),
  },
  {
    id: 'kyverno',
    title: 'Kyverno',
    kinds: [
      ...clusterScoped('kyverno.io', 'ClusterPolicy'),
      ...namespaced('kyverno.io', 'Policy'),
      ...namespaced('wgpolicyk8s.io', 'PolicyReport'),
      ...clusterScoped('wgpolicyk8s.io', 'ClusterPolicyReport'),
    ],
  },
  {
    id: 'velero',
    title: 'Velero',
    kinds: namespaced('velero.io', 'Backup', 'Restore', 'Schedule', 'BackupStorageLocation'),
  },
  {
    id: 'cloudnative-pg',
    title: 'CloudNativePG',
    kinds: namespaced('postgresql.cnpg.io', 'Cluster', 'Backup', 'ScheduledBackup', 'Pooler'),
  },
  {
    id: 'istio',
    title: 'Istio',
    kinds: namespaced('networking.istio.io', 'VirtualService', 'DestinationRule'),
  },
];

const byGroupKind = new Map(
  integrations.flatMap((integration) =>
    integration.kinds.map((k) => [`${k.group}/${k.kind}`, integration] as const),
  ),
);

/** The API group of an `apiVersion` (`''` for the core group's `v1`). */
export const groupOf = (apiVersion: string | undefined) => {
  const slash = (apiVersion ?? '').indexOf('/');
  return slash < 0 ? '' : (apiVersion ?? '').slice(0, slash);
};

/** The integration that understands objects of this group and kind, if any. */
export const integrationOf = (group: string, kind: string): Integration | undefined =>
  byGroupKind.get(`${group}/${kind}`);
