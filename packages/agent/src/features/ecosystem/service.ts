import { type KubeObject, kedaPaused, pausedAnnotation, pausedReplicasAnnotation } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import type { Impersonation } from '../../kube/client.ts';
import { collectionPath, objectPath } from '../../kube/discovery.ts';
import {
  type AnnotationPatch,
  backupFromSchedule,
  backupOfPostgresCluster,
  type PostgresBackupOptions,
  pausePatch,
  postgresBackupProblem,
  renewedStatus,
  restartedAtAnnotation,
  restartPatch,
  resumePatch,
} from './changes.ts';
import { type EcosystemTarget, labelOf } from './kinds.ts';
import type { EcosystemContext } from './module.ts';

/** Every action may be a dry run: the API server checks and answers the change (`dryRun=All`), and keeps nothing. */
export interface Run {
  dryRun: boolean;
  as?: Impersonation;
}

const dryRunQuery = (run: Run) => (run.dryRun ? { dryRun: 'All' } : undefined);
/** "would be renewed" or "renewed": what the answer says. */
const done = (run: Run, what: string) => (run.dryRun ? `would be ${what} (dry run: nothing changed)` : what);

/** The object as the API server has it now, read as the caller (404 and 403 come from there). */
function read(ctx: EcosystemContext, t: EcosystemTarget, as?: Impersonation): Promise<KubeObject> {
  return ctx.cluster.client.request<KubeObject>({ path: objectPath(t.resource, t.name, t.namespace), as });
}

/** An object being deleted takes no new work: 409, as the projects' controllers would ignore it. */
async function readLive(ctx: EcosystemContext, t: EcosystemTarget, as?: Impersonation) {
  const object = await read(ctx, t, as);
  if (object.metadata?.deletionTimestamp) throw new AppError('conflict', `${labelOf(t)} is being deleted`);
  return object;
}

/** A merge patch guarded by the resourceVersion read: a change in between is 409, never overwritten. */
function patch(
  ctx: EcosystemContext,
  t: EcosystemTarget,
  object: KubeObject,
  body: { metadata: Record<string, unknown> },
  run: Run,
) {
  return ctx.cluster.client.request<KubeObject>({
    method: 'PATCH',
    path: objectPath(t.resource, t.name, t.namespace),
    query: dryRunQuery(run),
    contentType: 'application/merge-patch+json',
    body: { ...body, metadata: { ...body.metadata, resourceVersion: object.metadata?.resourceVersion } },
    as: run.as,
  });
}

/** `cmctl renew`: the Issuing condition through the status subresource (an update: a change in between is 409). */
export async function renewCertificate(ctx: EcosystemContext, t: EcosystemTarget, run: Run) {
  const certificate = await readLive(ctx, t, run.as);
  const status = renewedStatus(certificate, new Date());
  await ctx.cluster.client.request<KubeObject>({
    method: 'PUT',
    path: `${objectPath(t.resource, t.name, t.namespace)}/status`,
    query: dryRunQuery(run),
    body: { ...certificate, status },
    as: run.as,
  });
  return {
    message: `re-issuance of ${labelOf(t)} ${done(run, 'requested')}`,
    uid: certificate.metadata?.uid,
    dryRun: run.dryRun,
    condition: status.conditions.find((c) => c.type === 'Issuing'),
  };
}

/** A Backup as the API server created it (or would have), named by what it is of. */
async function createBackup(
  ctx: EcosystemContext,
  t: EcosystemTarget,
  of: KubeObject,
  backup: KubeObject,
  run: Run,
) {
  const [group, version] = (backup.apiVersion ?? '').split('/');
  const created = await ctx.cluster.client.request<KubeObject>({
    method: 'POST',
    path: collectionPath(
      { group: group ?? '', version: version ?? '', plural: 'backups', namespaced: true },
      t.namespace,
    ),
    query: dryRunQuery(run),
    body: backup,
    as: run.as,
  });
  const { name, namespace, labels, annotations, ownerReferences } = created.metadata ?? {};
  return {
    message: `Backup ${namespace}/${name} of ${labelOf(t)} ${done(run, 'created')}`,
    uid: of.metadata?.uid,
    dryRun: run.dryRun,
    backup: {
      apiVersion: created.apiVersion,
      kind: created.kind,
      metadata: { name, namespace, labels, annotations, ownerReferences },
      spec: created.spec,
    },
  };
}

/**
 * Backup now: from a Velero Schedule (`velero backup create --from-schedule`) or of a CloudNativePG Cluster
 * (`kubectl cnpg backup`). The PostgreSQL options are the cnpg plugin's flags; a Schedule takes a name only, as
 * the velero CLI ignores every other filter with `--from-schedule`.
 */
export async function backupNow(
  ctx: EcosystemContext,
  t: EcosystemTarget,
  options: PostgresBackupOptions,
  run: Run,
) {
  const now = new Date();
  if (t.kind.group === 'velero.io') {
    const { name, ...rest } = options;
    const extra = Object.entries(rest).flatMap(([option, value]) => (value === undefined ? [] : [option]));
    if (extra.length)
      throw new AppError(
        'invalid_request',
        `a backup from a Velero Schedule takes the Schedule's template: ${extra.join(', ')} apply only to a CloudNativePG Cluster`,
      );
    const schedule = await readLive(ctx, t, run.as);
    return createBackup(ctx, t, schedule, backupFromSchedule(schedule, now, name), run);
  }
  const problem = postgresBackupProblem(options);
  if (problem) throw new AppError('invalid_request', problem);
  const cluster = await readLive(ctx, t, run.as);
  return createBackup(ctx, t, cluster, backupOfPostgresCluster(cluster, now, options), run);
}

const kedaAnnotations = (object: KubeObject) => {
  const annotations = object.metadata?.annotations ?? {};
  return Object.fromEntries(
    [pausedAnnotation, pausedReplicasAnnotation].flatMap((key) =>
      annotations[key] === undefined ? [] : [[key, annotations[key]]],
    ),
  );
};

/**
 * KEDA pause: `autoscaling.keda.sh/paused`, and `paused-replicas` to hold a ScaledObject's target at a count
 * (ScaledJobs have no such count: 400). Already paused that way: 200 and nothing changed.
 */
export async function pauseScaling(
  ctx: EcosystemContext,
  t: EcosystemTarget,
  replicas: number | undefined,
  run: Run,
) {
  if (replicas !== undefined && t.kind.kind === 'ScaledJob')
    throw new AppError(
      'invalid_request',
      'a ScaledJob has no paused replica count (KEDA reads autoscaling.keda.sh/paused-replicas on ScaledObjects only)',
    );
  const object = await readLive(ctx, t, run.as);
  return setScaling(ctx, t, object, pausePatch(object, replicas), run, {
    changed: replicas === undefined ? 'paused' : `paused at ${replicas} replicas`,
    same: 'was already paused that way',
  });
}

/** KEDA resume: both pause annotations removed. Not paused: 200 and nothing changed. */
export async function resumeScaling(ctx: EcosystemContext, t: EcosystemTarget, run: Run) {
  const object = await readLive(ctx, t, run.as);
  return setScaling(ctx, t, object, resumePatch(object), run, {
    changed: 'resumed',
    same: 'was not paused',
  });
}

async function setScaling(
  ctx: EcosystemContext,
  t: EcosystemTarget,
  object: KubeObject,
  change: AnnotationPatch | undefined,
  run: Run,
  words: { changed: string; same: string },
) {
  if (!change)
    return {
      message: `${labelOf(t)} ${words.same}: nothing changed`,
      uid: object.metadata?.uid,
      dryRun: run.dryRun,
      changed: false,
      paused: kedaPaused(object),
      annotations: kedaAnnotations(object),
    };
  const updated = await patch(ctx, t, object, change, run);
  return {
    message: `${labelOf(t)} ${done(run, words.changed)}`,
    uid: object.metadata?.uid,
    dryRun: run.dryRun,
    changed: true,
    paused: kedaPaused(updated),
    annotations: kedaAnnotations(updated),
  };
}

/**
 * Karpenter's manual disruption of one node (its docs: Disruption → Manual methods): deleting the NodeClaim, whose
 * termination finalizer has Karpenter taint and drain the node, then remove it and the instance. Guarded by the
 * uid read, so a NodeClaim recreated under that name is not the one deleted. Already being deleted: 200 and
 * nothing changed.
 */
export async function disruptNodeClaim(ctx: EcosystemContext, t: EcosystemTarget, run: Run) {
  const claim = await read(ctx, t, run.as);
  const node = (claim.status as { nodeName?: string } | undefined)?.nodeName;
  const uid = claim.metadata?.uid;
  const onNode = node ? ` (node ${node})` : '';
  if (claim.metadata?.deletionTimestamp)
    return {
      message: `${labelOf(t)}${onNode} is already being disrupted: nothing changed`,
      uid,
      dryRun: run.dryRun,
      changed: false,
      ...(node ? { node } : {}),
    };
  await ctx.cluster.client.request<KubeObject>({
    method: 'DELETE',
    path: objectPath(t.resource, t.name),
    // With a body, the API server reads the options from it alone: the dry run goes there, not in the query.
    body: {
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      preconditions: { uid },
      ...(run.dryRun ? { dryRun: ['All'] } : {}),
    },
    as: run.as,
  });
  return {
    message: `${labelOf(t)}${onNode} ${done(run, 'deleted: Karpenter drains and removes its node')}`,
    uid,
    dryRun: run.dryRun,
    changed: true,
    ...(node ? { node } : {}),
  };
}

/** `kubectl cnpg restart`: the Cluster's restartedAt annotation; the operator restarts its instances in turn. */
export async function restartPostgresCluster(ctx: EcosystemContext, t: EcosystemTarget, run: Run) {
  const cluster = await readLive(ctx, t, run.as);
  const change = restartPatch(new Date());
  await patch(ctx, t, cluster, change, run);
  return {
    message: `rolling restart of ${labelOf(t)} ${done(run, 'requested')}`,
    uid: cluster.metadata?.uid,
    dryRun: run.dryRun,
    restartedAt: change.metadata.annotations[restartedAtAnnotation],
  };
}
