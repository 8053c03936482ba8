import type { KubeObject } from '@binnacle/common';
import type { Impersonation } from '../../kube/client.ts';
import { nameWithSuffix } from '../../kube/objects.ts';
import type { CronjobsContext } from './module.ts';

const manualAnnotation = 'cronjob.kubernetes.io/instantiate';

const cronJobPath = (namespace: string, name: string) =>
  `/apis/batch/v1/namespaces/${encodeURIComponent(namespace)}/cronjobs/${encodeURIComponent(name)}`;

/** The CronJob as the API server has it, read as the caller (404: not a CronJob; 403: not the caller's to see). */
function readCronJob(ctx: CronjobsContext, namespace: string, name: string, as?: Impersonation) {
  return ctx.cluster.client.request<KubeObject>({ path: cronJobPath(namespace, name), as });
}

/**
 * A Job name for a manual run: `<cronjob>-manual-<unix seconds>`, the CronJob's part shortened so the whole stays
 * a valid label value (Jobs label their pods with their name).
 */
export function manualJobName(cronJob: string, at: Date): string {
  return nameWithSuffix(cronJob, `-manual-${Math.floor(at.getTime() / 1000)}`);
}

/**
 * The Job `kubectl create job --from=cronjob/<name>` makes: the jobTemplate's metadata and spec, the
 * `cronjob.kubernetes.io/instantiate: manual` annotation, and the CronJob as its controlling owner.
 */
export function jobFromCronJob(cronJob: KubeObject, name: string): KubeObject {
  const template = (cronJob.spec?.jobTemplate ?? {}) as { metadata?: KubeObject['metadata']; spec?: unknown };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name,
      namespace: cronJob.metadata?.namespace,
      labels: template.metadata?.labels,
      annotations: { ...template.metadata?.annotations, [manualAnnotation]: 'manual' },
      ownerReferences: [
        {
          apiVersion: 'batch/v1',
          kind: 'CronJob',
          name: cronJob.metadata?.name ?? '',
          uid: cronJob.metadata?.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: template.spec as KubeObject['spec'],
  };
}

/** Runs the CronJob now: a Job from its template, created as the caller. */
export async function triggerCronJob(
  ctx: CronjobsContext,
  namespace: string,
  name: string,
  as?: Impersonation,
) {
  const cronJob = await readCronJob(ctx, namespace, name, as);
  const job = await ctx.cluster.client.request<KubeObject>({
    method: 'POST',
    path: `/apis/batch/v1/namespaces/${encodeURIComponent(namespace)}/jobs`,
    body: jobFromCronJob(cronJob, manualJobName(name, new Date())),
    as,
  });
  const jobName = job.metadata?.name ?? '';
  return {
    message: `CronJob ${namespace}/${name} started Job ${jobName}`,
    uid: cronJob.metadata?.uid,
    jobName,
  };
}

/** Sets `spec.suspend`; saying so when it already had that value. */
export async function setCronJobSuspended(
  ctx: CronjobsContext,
  namespace: string,
  name: string,
  suspend: boolean,
  as?: Impersonation,
) {
  const before = await readCronJob(ctx, namespace, name, as);
  const was = before.spec?.suspend === true;
  const word = suspend ? 'suspended' : 'resumed';
  if (was === suspend) {
    return {
      message: `CronJob ${namespace}/${name} was already ${suspend ? 'suspended' : 'running on its schedule'}`,
      uid: before.metadata?.uid,
      suspended: suspend,
      changed: false,
    };
  }
  await ctx.cluster.client.request<KubeObject>({
    method: 'PATCH',
    path: cronJobPath(namespace, name),
    contentType: 'application/merge-patch+json',
    body: { spec: { suspend } },
    as,
  });
  return {
    message: `CronJob ${namespace}/${name} ${word}`,
    uid: before.metadata?.uid,
    suspended: suspend,
    changed: true,
  };
}
