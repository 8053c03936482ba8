import type { KubeObject } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import type { Impersonation } from '../../kube/client.ts';
import { objectPath } from '../../kube/discovery.ts';
import type { GitopsContext } from './module.ts';

export const refreshAnnotation = 'argocd.argoproj.io/refresh';

/** What a sync may carry: the options of `argocd app sync` and of the UI's sync dialog. */
export interface SyncRequest {
  /** Git revision, Helm chart version or OCI tag to sync to (default: the source's targetRevision). */
  revision?: string;
  prune?: boolean;
  dryRun?: boolean;
  /** Apply only (strategy `apply`): skip hooks. */
  applyOnly?: boolean;
  force?: boolean;
  serverSideApply?: boolean;
  replace?: boolean;
  /** Sync only these objects of the application. */
  resources?: { group?: string; kind: string; name: string; namespace?: string }[];
}

interface Application extends KubeObject {
  operation?: Record<string, unknown>;
  spec?: {
    source?: { targetRevision?: string };
    sources?: { targetRevision?: string }[];
    syncPolicy?: { automated?: { prune?: boolean; selfHeal?: boolean; enabled?: boolean } | null };
  } & KubeObject['spec'];
  status?: { operationState?: { phase?: string; message?: string } } & KubeObject['status'];
}

const applicationPath = (ctx: GitopsContext, namespace: string, name: string) =>
  objectPath(ctx.cluster.resolve('applications', 'argoproj.io'), name, namespace);

/** The Application as the caller may read it; a mutation of one being deleted is 409 (as Argo CD's API). */
async function readApplication(ctx: GitopsContext, namespace: string, name: string, as?: Impersonation) {
  const app = await ctx.cluster.client.request<Application>({
    path: applicationPath(ctx, namespace, name),
    as,
  });
  if (app.metadata?.deletionTimestamp)
    throw new AppError('conflict', `Application ${namespace}/${name} is being deleted`);
  return app;
}

/** A JSON merge patch guarded by the resourceVersion read, so a concurrent change is a 409, never overwritten. */
function patchApplication(
  ctx: GitopsContext,
  app: Application,
  patch: Record<string, unknown>,
  as?: Impersonation,
) {
  const { namespace = '', name = '', resourceVersion } = app.metadata ?? {};
  return ctx.cluster.client.request<Application>({
    method: 'PATCH',
    path: applicationPath(ctx, namespace, name),
    contentType: 'application/merge-patch+json',
    body: { ...patch, metadata: { ...(patch.metadata as object | undefined), resourceVersion } },
    as,
  });
}

/** Options that cannot go together, named (kubectl refuses --force with --server-side; Replace is not a patch). */
export function checkSyncOptions(request: SyncRequest): void {
  if (request.force && request.serverSideApply)
    throw new AppError('invalid_request', 'force and serverSideApply contradict each other: pick one');
  if (request.replace && request.serverSideApply)
    throw new AppError('invalid_request', 'replace and serverSideApply contradict each other: pick one');
}

/**
 * The `operation` Argo CD's API writes for a sync (ApplicationService.Sync → SetAppOperation): the revision (the
 * source's targetRevision unless one is given), prune and dry-run, the strategy (`hook` unless apply-only, with
 * force), sync options and selected resources, and who initiated it.
 */
export function syncOperation(
  app: Application,
  request: SyncRequest,
  username: string,
): Record<string, unknown> {
  const strategy = request.applyOnly ? 'apply' : 'hook';
  const syncOptions = [
    ...(request.serverSideApply ? ['ServerSideApply=true'] : []),
    ...(request.replace ? ['Replace=true'] : []),
  ];
  const sources = app.spec?.sources;
  return {
    initiatedBy: { username },
    sync: {
      ...(sources?.length
        ? { revisions: sources.map((s, i) => (i === 0 && request.revision) || s.targetRevision || 'HEAD') }
        : { revision: request.revision ?? app.spec?.source?.targetRevision ?? 'HEAD' }),
      ...(request.prune ? { prune: true } : {}),
      ...(request.dryRun ? { dryRun: true } : {}),
      syncStrategy: { [strategy]: request.force ? { force: true } : {} },
      ...(syncOptions.length ? { syncOptions } : {}),
      ...(request.resources?.length
        ? {
            resources: request.resources.map((r) => ({
              group: r.group ?? '',
              kind: r.kind,
              name: r.name,
              ...(r.namespace ? { namespace: r.namespace } : {}),
            })),
          }
        : {}),
    },
  };
}

export async function syncApplication(
  ctx: GitopsContext,
  namespace: string,
  name: string,
  request: SyncRequest,
  actor: string,
  as?: Impersonation,
) {
  checkSyncOptions(request);
  const app = await readApplication(ctx, namespace, name, as);
  if (app.operation)
    throw new AppError(
      'conflict',
      `Application ${namespace}/${name}: another operation is already in progress`,
    );
  const automated = app.spec?.syncPolicy?.automated;
  const target = app.spec?.source?.targetRevision || 'HEAD';
  if (
    automated &&
    automated.enabled !== false &&
    !request.dryRun &&
    request.revision &&
    request.revision !== target
  )
    throw new AppError(
      'invalid_request',
      `cannot sync ${namespace}/${name} to ${request.revision}: automated sync follows ${target}`,
    );
  const operation = syncOperation(app, request, actor);
  const updated = await patchApplication(ctx, app, { operation, status: { operationState: null } }, as);
  return {
    message: `${request.dryRun ? 'dry-run sync' : 'sync'} of Application ${namespace}/${name} requested`,
    uid: updated.metadata?.uid,
    operation,
  };
}

/** Argo CD's refresh: the `argocd.argoproj.io/refresh` annotation, `normal` or `hard` (also re-reads the source). */
export async function refreshApplication(
  ctx: GitopsContext,
  namespace: string,
  name: string,
  hard: boolean,
  as?: Impersonation,
) {
  const app = await readApplication(ctx, namespace, name, as);
  const type = hard ? 'hard' : 'normal';
  await patchApplication(ctx, app, { metadata: { annotations: { [refreshAnnotation]: type } } }, as);
  return {
    message: `${type} refresh of Application ${namespace}/${name} requested`,
    uid: app.metadata?.uid,
    refresh: type,
  };
}

/** Argo CD's terminate-op: the running operation's phase becomes `Terminating`; the controller then stops it. */
export async function terminateOperation(
  ctx: GitopsContext,
  namespace: string,
  name: string,
  as?: Impersonation,
) {
  const app = await readApplication(ctx, namespace, name, as);
  if (!app.operation || !app.status?.operationState)
    throw new AppError(
      'conflict',
      `Application ${namespace}/${name} has no operation in progress to terminate`,
    );
  await patchApplication(ctx, app, { status: { operationState: { phase: 'Terminating' } } }, as);
  return { message: `operation of Application ${namespace}/${name} is terminating`, uid: app.metadata?.uid };
}

/**
 * Suspends or resumes automated sync with Argo CD's own switch, `spec.syncPolicy.automated.enabled`, which keeps
 * prune and selfHeal as they were. Already in that state: 200 and no change, said so. Resuming an application
 * that never had automated sync turns it on (without prune or selfHeal).
 */
export async function setAutomatedSync(
  ctx: GitopsContext,
  namespace: string,
  name: string,
  enabled: boolean,
  as?: Impersonation,
) {
  const app = await readApplication(ctx, namespace, name, as);
  const automated = app.spec?.syncPolicy?.automated;
  const was = Boolean(automated) && automated?.enabled !== false;
  const word = enabled ? 'resumed' : 'suspended';
  if (was === enabled || (!enabled && !automated))
    return {
      message: `automated sync of Application ${namespace}/${name} was already ${enabled ? 'on' : 'off'}: nothing changed`,
      uid: app.metadata?.uid,
      changed: false,
      automated: automated ?? null,
    };
  const next = { ...automated, enabled };
  await patchApplication(ctx, app, { spec: { syncPolicy: { automated: next } } }, as);
  return {
    message: `automated sync of Application ${namespace}/${name} ${word}`,
    uid: app.metadata?.uid,
    changed: true,
    automated: next,
  };
}
