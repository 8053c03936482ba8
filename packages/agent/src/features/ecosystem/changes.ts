import {
  type KubeObject,
  type PostgresBackupMethod,
  type PostgresBackupTarget,
  pausedAnnotation,
  pausedReplicasAnnotation,
} from '@binnacle/common';

/**
 * The object changes of the projects' own CLIs, as pure functions of what was read (docs/ecosystem-actions.md,
 * ADR 0129). Each cites the source it follows.
 */

/** A status condition, with what the renew reads of it named (cert-manager's also carry observedGeneration). */
export interface Condition {
  type: string;
  status?: string;
  lastTransitionTime?: string;
  [field: string]: unknown;
}

/** Kubernetes' metav1.Time: RFC 3339 to the second. */
const kubeTime = (now: Date) => `${now.toISOString().slice(0, 19)}Z`;

/** Go's `20060102150405` in UTC: the suffix Velero's and CloudNativePG's CLIs give the backups they name. */
export const compactTime = (now: Date) => now.toISOString().slice(0, 19).replace(/[-T:]/g, '');

export const issuingReason = 'ManuallyTriggered';

/**
 * `cmctl renew` (cert-manager/cmctl v2.5.0, pkg/renew/renew.go `renewCertificate`): the Certificate's `Issuing`
 * condition `True`, reason `ManuallyTriggered`, through the status subresource, as cert-manager's
 * `apiutil.SetCertificateCondition` (v1.20.2, pkg/api/util/conditions.go) sets it: observedGeneration the
 * object's generation, lastTransitionTime now unless the status was already `True`, in place of one of that type.
 */
export function renewedStatus(certificate: KubeObject, now: Date): { conditions: Condition[] } {
  const status = (certificate.status ?? {}) as { conditions?: Condition[] };
  const conditions = status.conditions ?? [];
  const was = conditions.find((c) => c.type === 'Issuing');
  const issuing: Condition = {
    type: 'Issuing',
    status: 'True',
    reason: issuingReason,
    message: 'Certificate re-issuance manually triggered',
    lastTransitionTime:
      was?.status === 'True' && was.lastTransitionTime ? was.lastTransitionTime : kubeTime(now),
    observedGeneration: certificate.metadata?.generation ?? 0,
  };
  return {
    ...status,
    conditions: was ? conditions.map((c) => (c === was ? issuing : c)) : [...conditions, issuing],
  };
}

export const scheduleNameLabel = 'velero.io/schedule-name';

/**
 * `velero backup create --from-schedule` (vmware-tanzu/velero v1.18.1, pkg/cmd/cli/backup/create.go and
 * pkg/builder/backup_builder.go `FromSchedule`): a Backup named `<schedule>-<UTC yyyyMMddHHmmss>` unless named,
 * whose spec is the Schedule's template, labelled with the template's labels (the Schedule's own when the
 * template has none) and `velero.io/schedule-name`, annotated with the Schedule's annotations, and owned by the
 * Schedule when it sets `useOwnerReferencesInBackup`.
 */
export function backupFromSchedule(schedule: KubeObject, now: Date, name?: string): KubeObject {
  const meta = schedule.metadata ?? {};
  const spec = (schedule.spec ?? {}) as {
    template?: { metadata?: { labels?: Record<string, string> } } & Record<string, unknown>;
    useOwnerReferencesInBackup?: boolean;
  };
  const template = spec.template ?? {};
  const labels = { ...(template.metadata?.labels ?? meta.labels), [scheduleNameLabel]: meta.name ?? '' };
  return {
    apiVersion: 'velero.io/v1',
    kind: 'Backup',
    metadata: {
      name: name ?? `${meta.name}-${compactTime(now)}`,
      namespace: meta.namespace,
      labels,
      ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
      ...(spec.useOwnerReferencesInBackup === true
        ? {
            ownerReferences: [
              {
                apiVersion: 'velero.io/v1',
                kind: 'Schedule',
                name: meta.name ?? '',
                uid: meta.uid ?? '',
                controller: true,
              },
            ],
          }
        : {}),
    },
    spec: template,
  };
}

/** What `kubectl cnpg backup` takes beyond the cluster: its flags, by the Backup fields they set. */
export interface PostgresBackupOptions {
  name?: string;
  method?: PostgresBackupMethod;
  /** `--plugin-name`: with method `plugin` only. */
  plugin?: string;
  /** `--plugin-parameters`: what the plugin is given, with method `plugin` only. */
  pluginParameters?: Record<string, string>;
  target?: PostgresBackupTarget;
  online?: boolean;
  /** `--immediate-checkpoint`: an online backup starts with an immediate checkpoint, not a spread one. */
  immediateCheckpoint?: boolean;
  /** `--wait-for-archive`: an online backup ends once its last WAL file is archived. */
  waitForArchive?: boolean;
}

/**
 * Why `kubectl cnpg backup` would refuse these flags (v1.27.0 internal/cmd/plugin/backup/cmd.go): method
 * `plugin` names its plugin, no other method does. Undefined when it would take them.
 */
export function postgresBackupProblem(options: PostgresBackupOptions): string | undefined {
  if (options.method === 'plugin' && options.plugin === undefined)
    return 'a backup by method plugin names its plugin (plugin, as kubectl cnpg backup --plugin-name)';
  if (options.method !== 'plugin' && options.plugin !== undefined)
    return 'plugin applies only to a backup by method plugin';
  if (options.method !== 'plugin' && Object.keys(options.pluginParameters ?? {}).length > 0)
    return 'pluginParameters apply only to a backup by method plugin';
  return undefined;
}

export const postgresClusterLabel = 'cnpg.io/cluster';

/**
 * `kubectl cnpg backup` (cloudnative-pg/cloudnative-pg v1.30.0, internal/cmd/plugin/backup/cmd.go
 * `createBackup`): a Backup naming the cluster, labelled `cnpg.io/cluster`, named `<cluster>-<yyyyMMddHHmmss>`
 * unless named, with the target, method, online and online configuration the flags give (the cluster's own
 * settings otherwise), and with method `plugin` the plugin's name and parameters.
 */
export function backupOfPostgresCluster(
  cluster: KubeObject,
  now: Date,
  options: PostgresBackupOptions,
): KubeObject {
  const clusterName = cluster.metadata?.name ?? '';
  return {
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'Backup',
    metadata: {
      name: options.name ?? `${clusterName}-${compactTime(now)}`,
      namespace: cluster.metadata?.namespace,
      labels: { [postgresClusterLabel]: clusterName },
    },
    spec: {
      cluster: { name: clusterName },
      ...(options.target ? { target: options.target } : {}),
      ...(options.method ? { method: options.method } : {}),
      ...(options.online !== undefined ? { online: options.online } : {}),
      ...onlineConfiguration(options),
      ...(options.plugin !== undefined
        ? { pluginConfiguration: pluginConfiguration(options.plugin, options) }
        : {}),
    },
  };
}

/** `spec.onlineConfiguration`, only when a flag of it was given (the cluster's own settings otherwise). */
function onlineConfiguration({ immediateCheckpoint, waitForArchive }: PostgresBackupOptions) {
  if (immediateCheckpoint === undefined && waitForArchive === undefined) return {};
  return {
    onlineConfiguration: {
      ...(immediateCheckpoint !== undefined ? { immediateCheckpoint } : {}),
      ...(waitForArchive !== undefined ? { waitForArchive } : {}),
    },
  };
}

const pluginConfiguration = (name: string, { pluginParameters }: PostgresBackupOptions) => ({
  name,
  ...(pluginParameters && Object.keys(pluginParameters).length > 0
    ? { parameters: { ...pluginParameters } }
    : {}),
});

export const restartedAtAnnotation = 'kubectl.kubernetes.io/restartedAt';

/**
 * `kubectl cnpg restart` (v1.30.0, internal/cmd/plugin/restart/restart.go `restart`): the Cluster's
 * `kubectl.kubernetes.io/restartedAt` annotation, RFC 3339, as a merge patch; the operator then restarts the
 * instances one by one, the primary last.
 */
export const restartPatch = (now: Date) => ({
  metadata: { annotations: { [restartedAtAnnotation]: kubeTime(now) } },
});

/** A merge patch of annotations: `null` removes one. */
export type AnnotationPatch = { metadata: { annotations: Record<string, string | null> } };

/**
 * The annotations that pause a ScaledObject or ScaledJob as KEDA documents it: `paused: "true"`, and for a
 * ScaledObject held at a count `paused-replicas: "<n>"` (a pause without a count removes an earlier one, so the
 * target stays where it is). Undefined when the object already carries exactly these.
 */
export function pausePatch(object: KubeObject, replicas?: number): AnnotationPatch | undefined {
  const annotations = object.metadata?.annotations ?? {};
  const wanted = { [pausedAnnotation]: 'true', [pausedReplicasAnnotation]: replicas?.toString() ?? null };
  const same = Object.entries(wanted).every(([key, value]) => (annotations[key] ?? null) === value);
  return same ? undefined : { metadata: { annotations: wanted } };
}

/** Resuming removes both annotations (KEDA's docs: remove them, or set `paused` false); undefined when neither is set. */
export function resumePatch(object: KubeObject): AnnotationPatch | undefined {
  const annotations = object.metadata?.annotations ?? {};
  if (!(pausedAnnotation in annotations) && !(pausedReplicasAnnotation in annotations)) return undefined;
  return { metadata: { annotations: { [pausedAnnotation]: null, [pausedReplicasAnnotation]: null } } };
}
