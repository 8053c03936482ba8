import { ago, condition, metadata, type StateFixture, withStatus } from './fixture.ts';

/**
 * CloudNativePG objects in each state, as CloudNativePG v1.27.0 writes them: a Cluster's phase sentence and
 * phaseReason (api/v1/cluster_types.go Phase* constants, internal/controller/cluster_status.go) with its Ready
 * condition (ClusterIsReady / ClusterIsNotReady); a Backup's phase and error (api/v1/backup_types.go).
 */
const api = 'postgresql.cnpg.io/v1';

/** A CloudNativePG Cluster of `instances` instances (one unless given). */
export const postgresCluster = (
  name: string,
  options: { namespace?: string; instances?: number; status?: Record<string, unknown> } = {},
) => ({
  apiVersion: api,
  kind: 'Cluster',
  metadata: metadata(name, options.namespace),
  spec: { instances: options.instances ?? 1, storage: { size: '1Gi' } },
  ...withStatus(options.status),
});

export function cloudNativePgStates(namespace: string, prefix: string): StateFixture[] {
  const cluster = (name: string, status: Record<string, unknown>) =>
    postgresCluster(name, {
      namespace,
      instances: 3,
      status: { instances: 3, latestGeneratedNode: 3, ...status },
    });
  const backup = (name: string, status: Record<string, unknown>) => ({
    apiVersion: api,
    kind: 'Backup',
    metadata: metadata(name, namespace),
    spec: { cluster: { name: prefix }, method: 'barmanObjectStore' },
    status: { method: 'barmanObjectStore', startedAt: ago(10), ...status },
  });
  return [
    {
      state: 'healthy',
      object: cluster(prefix, {
        phase: 'Cluster in healthy state',
        readyInstances: 3,
        currentPrimary: `${prefix}-1`,
        targetPrimary: `${prefix}-1`,
        conditions: [condition('Ready', 'True', 'ClusterIsReady', 'Cluster is Ready')],
      }),
      expected: { health: 'healthy', from: 'phase', reason: 'Cluster in healthy state' },
    },
    {
      state: 'progressing',
      object: cluster(`${prefix}-scaling`, {
        phase: 'Creating a new replica',
        phaseReason: `Creating replica ${prefix}-scaling-3`,
        readyInstances: 2,
        currentPrimary: `${prefix}-scaling-1`,
        targetPrimary: `${prefix}-scaling-1`,
        conditions: [condition('Ready', 'False', 'ClusterIsNotReady', 'Cluster Is Not Ready')],
      }),
      expected: { health: 'degraded', from: 'phase', reason: 'Creating a new replica' },
    },
    {
      state: 'failed',
      object: cluster(`${prefix}-broken`, {
        phase: 'Unable to create required cluster objects',
        phaseReason: 'secrets "broken-superuser" is forbidden',
        readyInstances: 0,
        conditions: [condition('Ready', 'False', 'ClusterIsNotReady', 'Cluster Is Not Ready')],
      }),
      expected: { health: 'unhealthy', from: 'phase', reason: 'Unable to create required cluster objects' },
    },
    {
      state: 'healthy',
      object: backup(`${prefix}-backup`, { phase: 'completed', stoppedAt: ago(5) }),
      expected: { health: 'healthy', from: 'phase', reason: 'completed' },
    },
    {
      state: 'progressing',
      object: backup(`${prefix}-backup-running`, { phase: 'running' }),
      expected: { health: 'degraded', from: 'phase', reason: 'running' },
    },
    {
      state: 'failed',
      object: backup(`${prefix}-backup-failed`, {
        phase: 'failed',
        error: "can't execute backup: no barmanObjectStore section defined on the target cluster",
      }),
      expected: { health: 'unhealthy', from: 'phase', reason: 'failed' },
    },
  ];
}
