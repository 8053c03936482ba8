/** Kinds whose pods the metricsdb routes roll up (a workload's pods through their owners), and Nodes. */
const workloads = new Set(['Pod', 'Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob']);

/** Whether an object's page has metrics charts: a workload or pod in a namespace, or a node. */
export const hasMetrics = (kind: string | undefined, namespace: string | undefined) =>
  kind === 'Node' ? !namespace : Boolean(kind && namespace && workloads.has(kind));

/** Whether it has rightsizing recommendations: the workloads and pods, not nodes. */
export const hasRightsizing = (kind: string | undefined, namespace: string | undefined) =>
  kind !== 'Node' && hasMetrics(kind, namespace);
