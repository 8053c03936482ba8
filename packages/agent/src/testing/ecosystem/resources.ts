/**
 * Where the ecosystem projects' kinds are served (their real CRDs, test/cluster/build.sh, ADR 0127), for tests that
 * create and read objects of them through the API server.
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
