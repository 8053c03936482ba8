import type { KubeObject } from '@binnacle/common';
import { count, type HealthWhy, noStatus, record, text, verdict } from './verdict.ts';

/**
 * Velero v1.18.3 (pkg/apis/velero/v1/backup_types.go, restore_types.go, schedule_types.go,
 * backupstoragelocation_types.go): Backups and Restores by phase (New, Queued, ReadyToStart, InProgress,
 * WaitingForPluginOperations…, Finalizing…, Completed, PartiallyFailed, Failed, FailedValidation, Deleting),
 * Schedules by phase (New, Enabled, FailedValidation) and `spec.paused`, storage locations by phase (Available,
 * Unavailable).
 */
const runPhases: Record<string, HealthWhy['health']> = {
  Completed: 'healthy',
  New: 'degraded',
  Queued: 'degraded',
  ReadyToStart: 'degraded',
  InProgress: 'degraded',
  WaitingForPluginOperations: 'degraded',
  WaitingForPluginOperationsPartiallyFailed: 'degraded',
  Finalizing: 'degraded',
  FinalizingPartiallyFailed: 'degraded',
  Deleting: 'degraded',
  PartiallyFailed: 'unhealthy',
  Failed: 'unhealthy',
  FailedValidation: 'unhealthy',
};

/** What a failed or partly failed run says: its failure reason, validation errors, error and warning counts. */
function runMessage(status: Record<string, unknown>): string | undefined {
  const validation = Array.isArray(status.validationErrors) ? status.validationErrors.join('; ') : '';
  const parts = [
    text(status.failureReason),
    validation || undefined,
    count(status.errors) > 0 ? `${count(status.errors)} errors` : undefined,
    count(status.warnings) > 0 ? `${count(status.warnings)} warnings` : undefined,
  ].filter((part): part is string => part !== undefined);
  return parts.length > 0 ? parts.join(', ') : undefined;
}

export function veleroHealth(object: KubeObject): HealthWhy {
  const status = record(object.status);
  const phase = text(status.phase);
  switch (object.kind) {
    case 'Schedule':
      if (record(object.spec).paused === true)
        return verdict('degraded', 'spec.paused', 'Paused', 'the schedule is paused');
      if (phase === 'FailedValidation') return verdict('unhealthy', 'phase', phase, runMessage(status));
      return phase
        ? verdict(phase === 'Enabled' ? 'healthy' : 'degraded', 'phase', phase)
        : noStatus('a phase');
    case 'BackupStorageLocation':
      if (!phase) return noStatus('a phase');
      return verdict(phase === 'Available' ? 'healthy' : 'unhealthy', 'phase', phase, text(status.message));
    default:
      if (!phase) return noStatus('a phase');
      return verdict(runPhases[phase] ?? 'unknown', 'phase', phase, runMessage(status));
  }
}
