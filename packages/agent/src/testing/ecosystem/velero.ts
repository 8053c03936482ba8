import { ago, daysAhead, type MetadataExtras, metadata, type StateFixture, withStatus } from './fixture.ts';

/**
 * Velero objects in each state, as Velero v1.18.3 writes them (pkg/apis/velero/v1/backup_types.go,
 * restore_types.go, schedule_types.go, backupstoragelocation_types.go; failure reasons from
 * pkg/controller/backup_controller.go and restore_controller.go). Velero's CRDs have no status subresource: the
 * status is part of the object.
 */
const api = 'velero.io/v1';

/**
 * A Schedule backing up the `included` namespaces at `schedule` (03:00 daily unless given), kept 30 days; `extras`
 * are the labels and annotations a team puts on it (Velero copies them onto the Backups it makes).
 */
export const veleroSchedule = (
  name: string,
  included: string[],
  options: {
    namespace?: string;
    schedule?: string;
    paused?: boolean;
    extras?: MetadataExtras;
    status?: Record<string, unknown>;
  } = {},
) => ({
  apiVersion: api,
  kind: 'Schedule',
  metadata: metadata(name, options.namespace, options.extras),
  spec: {
    schedule: options.schedule ?? '0 3 * * *',
    ...(options.paused ? { paused: true } : {}),
    template: { includedNamespaces: included, ttl: '720h0m0s' },
  },
  ...withStatus(options.status),
});

export function veleroStates(namespace: string, prefix: string): StateFixture[] {
  const backup = (name: string, status: Record<string, unknown>) => ({
    apiVersion: api,
    kind: 'Backup',
    metadata: metadata(name, namespace),
    spec: { includedNamespaces: ['shop', 'payments'], storageLocation: 'default', ttl: '720h0m0s' },
    status: { version: 1, formatVersion: '1.1.0', startTimestamp: ago(30), ...status },
  });
  return [
    {
      state: 'healthy',
      object: backup(`${prefix}-nightly`, {
        phase: 'Completed',
        completionTimestamp: ago(25),
        expiration: daysAhead(29),
        errors: 0,
        warnings: 1,
      }),
      expected: { health: 'healthy', from: 'phase', reason: 'Completed' },
    },
    {
      state: 'progressing',
      object: backup(`${prefix}-running`, { phase: 'InProgress', expiration: daysAhead(30) }),
      expected: { health: 'degraded', from: 'phase', reason: 'InProgress' },
    },
    {
      state: 'failed',
      object: backup(`${prefix}-partial`, {
        phase: 'PartiallyFailed',
        completionTimestamp: ago(20),
        expiration: daysAhead(29),
        errors: 2,
        warnings: 0,
      }),
      expected: { health: 'unhealthy', from: 'phase', reason: 'PartiallyFailed' },
    },
    {
      state: 'failed',
      object: backup(`${prefix}-failed`, {
        phase: 'Failed',
        failureReason:
          'error getting backup storage location: backupstoragelocation.velero.io "default" not found',
      }),
      expected: { health: 'unhealthy', from: 'phase', reason: 'Failed' },
    },
    {
      state: 'failed',
      object: {
        apiVersion: api,
        kind: 'Restore',
        metadata: metadata(`${prefix}-restore`, namespace),
        spec: { backupName: `${prefix}-gone` },
        status: {
          phase: 'FailedValidation',
          validationErrors: [`backup.velero.io "${prefix}-gone" not found`],
        },
      },
      expected: { health: 'unhealthy', from: 'phase', reason: 'FailedValidation' },
    },
    {
      state: 'healthy',
      object: veleroSchedule(`${prefix}-daily`, ['shop'], {
        namespace,
        schedule: '0 1 * * *',
        status: { phase: 'Enabled', lastBackup: ago(60) },
      }),
      expected: { health: 'healthy', from: 'phase', reason: 'Enabled' },
    },
    {
      state: 'progressing',
      object: veleroSchedule(`${prefix}-paused`, ['shop'], {
        namespace,
        schedule: '0 2 * * *',
        paused: true,
        status: { phase: 'Enabled' },
      }),
      expected: { health: 'degraded', from: 'spec.paused', reason: 'Paused' },
    },
    {
      state: 'failed',
      object: {
        apiVersion: api,
        kind: 'BackupStorageLocation',
        metadata: metadata(`${prefix}-store`, namespace),
        spec: { provider: 'aws', objectStorage: { bucket: 'backups' } },
        status: {
          phase: 'Unavailable',
          lastValidationTime: ago(1),
          message:
            'BackupStorageLocation "default" is unavailable: rpc error: code = Unknown desc = NoSuchBucket',
        },
      },
      expected: { health: 'unhealthy', from: 'phase', reason: 'Unavailable' },
    },
  ];
}
