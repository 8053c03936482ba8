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
