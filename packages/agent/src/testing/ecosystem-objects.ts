import { unmanagedNodeClassRef } from './ecosystem/karpenter.ts';
/**
 * Objects of the ecosystem projects' kinds as their real CRDs take them (test/cluster/build.sh, ADR 0127), for the
 * tests of the actions on them (docs/ecosystem-actions.md).
 */

export const ecosystemKinds = {
  certificates: { group: 'cert-manager.io', version: 'v1', plural: 'certificates' },
  schedules: { group: 'velero.io', version: 'v1', plural: 'schedules' },
  veleroBackups: { group: 'velero.io', version: 'v1', plural: 'backups' },
  scaledObjects: { group: 'keda.sh', version: 'v1alpha1', plural: 'scaledobjects' },
  scaledJobs: { group: 'keda.sh', version: 'v1alpha1', plural: 'scaledjobs' },
  nodeClaims: { group: 'karpenter.sh', version: 'v1', plural: 'nodeclaims' },
  postgresClusters: { group: 'postgresql.cnpg.io', version: 'v1', plural: 'clusters' },
  postgresBackups: { group: 'postgresql.cnpg.io', version: 'v1', plural: 'backups' },
} as const;

/** A Certificate of `shop.example.com` from a ClusterIssuer (none runs: it stays as written). */
export const certificate = (name: string) => ({
  apiVersion: 'cert-manager.io/v1',
  kind: 'Certificate',
  metadata: { name },
  spec: {
    secretName: `${name}-tls`,
    dnsNames: ['shop.example.com'],
    issuerRef: { name: 'letsencrypt', kind: 'ClusterIssuer' },
  },
});

/** A daily Velero Schedule of the `included` namespaces, labelled and annotated as a team would. */
export const veleroSchedule = (name: string, included: string[]) => ({
  apiVersion: 'velero.io/v1',
  kind: 'Schedule',
  metadata: { name, labels: { team: 'platform' }, annotations: { 'example.com/owner': 'sre' } },
  spec: { schedule: '0 3 * * *', template: { includedNamespaces: included, ttl: '720h0m0s' } },
});

/** A ScaledObject scaling Deployment `orders` on CPU. */
export const scaledObject = (name: string) => ({
  apiVersion: 'keda.sh/v1alpha1',
  kind: 'ScaledObject',
  metadata: { name },
  spec: {
    scaleTargetRef: { name: 'orders' },
    minReplicaCount: 1,
    maxReplicaCount: 10,
    triggers: [{ type: 'cpu', metricType: 'Utilization', metadata: { value: '60' } }],
  },
});

/** A NodeClaim the test control plane's Karpenter leaves alone (its NodeClass is no provider's), on demand. */
export const nodeClaim = (name: string) => ({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodeClaim',
  metadata: { name },
  spec: {
    nodeClassRef: unmanagedNodeClassRef,
    requirements: [{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] }],
  },
});

/** A one-instance CloudNativePG Cluster. */
export const postgresCluster = (name: string) => ({
  apiVersion: 'postgresql.cnpg.io/v1',
  kind: 'Cluster',
  metadata: { name },
  spec: { instances: 1, storage: { size: '1Gi' } },
});
