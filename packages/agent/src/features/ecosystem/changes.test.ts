import {
  actionKindOf,
  ecosystemActionsOf,
  kedaPaused as isPaused,
  parsePluginParameters,
} from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import {
  backupFromSchedule,
  backupOfPostgresCluster,
  compactTime,
  pausePatch,
  postgresBackupProblem,
  renewedStatus,
  restartPatch,
  resumePatch,
} from './changes.ts';

const now = new Date('2026-11-29T19:45:07.123Z');

describe('cmctl renew', () => {
  it('adds Issuing True, ManuallyTriggered, at the generation, keeping the other conditions', () => {
    const ready = { type: 'Ready', status: 'True', reason: 'Ready' };
    const status = renewedStatus(
      { metadata: { generation: 3 }, status: { conditions: [ready], notAfter: 'x' } },
      now,
    );
    expect(status).toEqual({
      notAfter: 'x',
      conditions: [
        ready,
        {
          type: 'Issuing',
          status: 'True',
          reason: 'ManuallyTriggered',
          message: 'Certificate re-issuance manually triggered',
          lastTransitionTime: '2026-11-29T19:45:07Z',
          observedGeneration: 3,
        },
      ],
    });
  });

  it('replaces an Issuing condition in place; its transition time stays when it already was True', () => {
    const issuing = (status: string) => ({
      metadata: { generation: 1 },
      status: {
        conditions: [
          { type: 'Issuing', status, reason: 'Other', lastTransitionTime: '2026-01-01T00:00:00Z' },
        ],
      },
    });
    expect(renewedStatus(issuing('True'), now).conditions).toEqual([
      expect.objectContaining({ reason: 'ManuallyTriggered', lastTransitionTime: '2026-01-01T00:00:00Z' }),
    ]);
    expect(renewedStatus(issuing('False'), now).conditions).toEqual([
      expect.objectContaining({ status: 'True', lastTransitionTime: '2026-11-29T19:45:07Z' }),
    ]);
  });
});

describe('velero backup create --from-schedule', () => {
  const schedule = {
    metadata: {
      name: 'daily',
      namespace: 'velero',
      uid: 'u1',
      labels: { team: 'platform' },
      annotations: { note: 'keep' },
    },
    spec: { schedule: '@daily', template: { includedNamespaces: ['shop'], ttl: '720h0m0s' } },
  };

  it("is the Schedule's template, named by the UTC time, with the Schedule's labels, annotations and its name", () => {
    expect(compactTime(now)).toBe('20261129194507');
    expect(backupFromSchedule(schedule, now)).toEqual({
      apiVersion: 'velero.io/v1',
      kind: 'Backup',
      metadata: {
        name: 'daily-20261129194507',
        namespace: 'velero',
        labels: { team: 'platform', 'velero.io/schedule-name': 'daily' },
        annotations: { note: 'keep' },
      },
      spec: { includedNamespaces: ['shop'], ttl: '720h0m0s' },
    });
  });

  it("takes the template's labels over the Schedule's, a given name, and an owner when the Schedule asks", () => {
    const backup = backupFromSchedule(
      {
        ...schedule,
        spec: {
          useOwnerReferencesInBackup: true,
          template: { metadata: { labels: { tier: 'gold' } }, includedNamespaces: ['*'] },
        },
      },
      now,
      'by-hand',
    );
    expect(backup.metadata).toMatchObject({
      name: 'by-hand',
      labels: { tier: 'gold', 'velero.io/schedule-name': 'daily' },
      ownerReferences: [{ kind: 'Schedule', name: 'daily', uid: 'u1', controller: true }],
    });
  });
});

describe('kubectl cnpg backup and restart', () => {
  const cluster = { metadata: { name: 'pg', namespace: 'db' } };
  it('names the cluster, labels it, and sets only the flags given', () => {
    expect(backupOfPostgresCluster(cluster, now, {})).toEqual({
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Backup',
      metadata: { name: 'pg-20261129194507', namespace: 'db', labels: { 'cnpg.io/cluster': 'pg' } },
      spec: { cluster: { name: 'pg' } },
    });
    expect(
      backupOfPostgresCluster(cluster, now, { name: 'b', method: 'volumeSnapshot', online: false }).spec,
    ).toEqual({ cluster: { name: 'pg' }, method: 'volumeSnapshot', online: false });
  });

  it('names the plugin of a plugin backup, as --plugin-name; refuses a plugin backup without one, a plugin without it', () => {
    const byPlugin = {
      method: 'plugin',
      plugin: 'barman-cloud.cloudnative-pg.io',
      target: 'prefer-standby',
    } as const;
    expect(backupOfPostgresCluster(cluster, now, byPlugin).spec).toEqual({
      cluster: { name: 'pg' },
      method: 'plugin',
      target: 'prefer-standby',
      pluginConfiguration: { name: 'barman-cloud.cloudnative-pg.io' },
    });
    expect(postgresBackupProblem(byPlugin)).toBeUndefined();
    expect(postgresBackupProblem({ method: 'plugin' })).toMatch(/names its plugin/);
    expect(postgresBackupProblem({ method: 'volumeSnapshot', plugin: 'x' })).toMatch(
      /only to a backup by method plugin/,
    );
    expect(postgresBackupProblem({ plugin: 'x' })).toMatch(/only to a backup by method plugin/);
  });

  it('passes --plugin-parameters to the plugin, and the online configuration flags given, only those', () => {
    const parameters = { barmanObjectName: 'minio-store', 'compression/level': '' };
    const spec = backupOfPostgresCluster(cluster, now, {
      method: 'plugin',
      plugin: 'barman-cloud.cloudnative-pg.io',
      pluginParameters: parameters,
      immediateCheckpoint: true,
    }).spec;
    expect(spec).toEqual({
      cluster: { name: 'pg' },
      method: 'plugin',
      onlineConfiguration: { immediateCheckpoint: true },
      pluginConfiguration: { name: 'barman-cloud.cloudnative-pg.io', parameters },
    });
    expect(backupOfPostgresCluster(cluster, now, { waitForArchive: false }).spec).toEqual({
      cluster: { name: 'pg' },
      onlineConfiguration: { waitForArchive: false },
    });
    expect(
      backupOfPostgresCluster(cluster, now, { method: 'plugin', plugin: 'p', pluginParameters: {} }).spec,
    ).toEqual({ cluster: { name: 'pg' }, method: 'plugin', pluginConfiguration: { name: 'p' } });
    expect(postgresBackupProblem({ method: 'barmanObjectStore', pluginParameters: parameters })).toMatch(
      /pluginParameters apply only to a backup by method plugin/,
    );
    expect(postgresBackupProblem({ pluginParameters: {} })).toBeUndefined();
  });

  it('reads --plugin-parameters as the plugin does', () => {
    expect(parsePluginParameters('a=1,b=x=y,,c,a=2')).toEqual({ a: '2', b: 'x=y', c: '' });
    expect(parsePluginParameters('')).toEqual({});
  });

  it('restarts through the restartedAt annotation', () => {
    expect(restartPatch(now)).toEqual({
      metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-11-29T19:45:07Z' } },
    });
  });
});

describe('KEDA pause and resume', () => {
  const scaled = (annotations?: Record<string, string>, kind = 'ScaledObject') => ({
    kind,
    metadata: { annotations },
  });

  it('reads paused as KEDA does: paused-replicas on a ScaledObject, or paused not a false boolean', () => {
    expect(isPaused(scaled())).toBe(false);
    expect(isPaused(scaled({ 'autoscaling.keda.sh/paused': 'false' }))).toBe(false);
    expect(isPaused(scaled({ 'autoscaling.keda.sh/paused': 'yes' }))).toBe(true);
    expect(isPaused(scaled({ 'autoscaling.keda.sh/paused-replicas': '0' }))).toBe(true);
    expect(isPaused(scaled({ 'autoscaling.keda.sh/paused-replicas': '0' }, 'ScaledJob'))).toBe(false);
  });

  it('pauses with the annotations, holds at a count, and says when there is nothing to do', () => {
    expect(pausePatch(scaled())).toEqual({
      metadata: {
        annotations: { 'autoscaling.keda.sh/paused': 'true', 'autoscaling.keda.sh/paused-replicas': null },
      },
    });
    expect(pausePatch(scaled(), 2)?.metadata.annotations['autoscaling.keda.sh/paused-replicas']).toBe('2');
    expect(pausePatch(scaled({ 'autoscaling.keda.sh/paused': 'true' }))).toBeUndefined();
    const heldAtTwo = scaled({
      'autoscaling.keda.sh/paused': 'true',
      'autoscaling.keda.sh/paused-replicas': '2',
    });
    expect(pausePatch(heldAtTwo, 2)).toBeUndefined();
    expect(pausePatch(heldAtTwo)).toBeDefined();
  });

  it('resumes by removing both annotations; not paused is nothing to do', () => {
    expect(resumePatch(scaled())).toBeUndefined();
    expect(resumePatch(scaled({ 'autoscaling.keda.sh/paused-replicas': '1' }))).toEqual({
      metadata: {
        annotations: { 'autoscaling.keda.sh/paused': null, 'autoscaling.keda.sh/paused-replicas': null },
      },
    });
  });
});

describe('the action kinds', () => {
  it('names a kind by plural, Kind or plural.group, among the kinds of that action only', () => {
    for (const text of ['certificates', 'Certificate', 'certificates.cert-manager.io'])
      expect(actionKindOf('renew', text)?.kind).toBe('Certificate');
    expect(actionKindOf('renew', 'deployments')).toBeUndefined();
    expect(actionKindOf('backup', 'clusters')?.group).toBe('postgresql.cnpg.io');
    expect(actionKindOf('backup', 'clusters.cluster.x-k8s.io')).toBeUndefined();
  });

  it('lists what an object offers by its group and kind', () => {
    expect(ecosystemActionsOf('postgresql.cnpg.io', 'Cluster')).toEqual(['backup', 'restart']);
    expect(ecosystemActionsOf('keda.sh', 'ScaledJob')).toEqual(['pause', 'resume']);
    expect(ecosystemActionsOf('serving.knative.dev', 'Service')).toEqual([]);
  });
});
