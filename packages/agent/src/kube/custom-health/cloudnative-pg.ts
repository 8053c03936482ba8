import type { KubeObject } from '@binnacle/common';
import {
  conditionsOf,
  count,
  find,
  type HealthWhy,
  noStatus,
  positive,
  record,
  text,
  verdict,
} from './verdict.ts';

/**
 * CloudNativePG v1.27.0: a Cluster's `status.phase` is a sentence (api/v1/cluster_types.go, Phase* constants) with
 * `phaseReason`, beside a Ready condition (ClusterIsReady / ClusterIsNotReady); a Backup's phase is one of pending,
 * started, running, finalizing, completed, failed, walArchivingFailing (api/v1/backup_types.go).
 */
const healthyPhase = 'Cluster in healthy state';
/** The phases an operator must act on: the operator cannot go on by itself. */
const failedPhases = new Set([
  'Cluster cannot proceed to reconciliation due to an unknown plugin being required',
  'Cluster cannot proceed to reconciliation due to an error while interacting with plugins',
  'Cluster has incomplete or invalid image catalog',
  'Cluster is unrecoverable and needs manual intervention',
  'Cluster cannot execute instance online upgrade due to missing architecture binary',
  'Unable to create required cluster objects',
  'Waiting for user action',
]);
const backupPhases: Record<string, HealthWhy['health']> = {
  completed: 'healthy',
  pending: 'degraded',
  started: 'degraded',
  running: 'degraded',
  finalizing: 'degraded',
  failed: 'unhealthy',
  walArchivingFailing: 'unhealthy',
};
const none = new Set<string>();

function clusterHealth(cluster: KubeObject): HealthWhy {
  const status = record(cluster.status);
  const phase = text(status.phase);
  const reason = text(status.phaseReason);
  if (phase === healthyPhase) return verdict('healthy', 'phase', phase, reason);
  if (phase) return verdict(failedPhases.has(phase) ? 'unhealthy' : 'degraded', 'phase', phase, reason);
  const ready = find(conditionsOf(cluster), 'Ready');
  return ready ? positive(ready, none) : noStatus('a phase');
}

export function cloudNativePgHealth(object: KubeObject): HealthWhy {
  const status = record(object.status);
  switch (object.kind) {
    case 'Cluster':
      return clusterHealth(object);
    case 'Backup': {
      const phase = text(status.phase);
      if (!phase) return noStatus('a phase');
      return verdict(backupPhases[phase] ?? 'unknown', 'phase', phase, text(status.error));
    }
    case 'Pooler': {
      if (status.instances === undefined) return noStatus('its instances');
      const want =
        typeof record(object.spec).instances === 'number' ? count(record(object.spec).instances) : 1;
      const have = count(status.instances);
      return verdict(have >= want ? 'healthy' : 'degraded', 'instances', `${have}/${want}`);
    }
    default:
      // ScheduledBackup: a schedule; suspended is on hold, not broken.
      return record(object.spec).suspend === true
        ? verdict('degraded', 'spec.suspend', 'Suspended', 'the schedule is suspended')
        : verdict('healthy');
  }
}
