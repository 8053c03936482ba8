import type { KubeObject } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import type { CallerView } from '../../http/caller-view.ts';
import { viewReader } from '../../http/caller-view.ts';
import { splitApiVersion } from '../../kube/discovery.ts';
import { type LiveHealth, liveHealth } from '../../kube/live-health.ts';
import { applicationRefs, inventoryRefs } from '../../scope/gitops/managed.ts';
import { manifestResources, releaseRevision, releaseRevisions } from '../../scope/helm-history.ts';
import type { ReleaseDecoder } from '../../scope/helm-releases.ts';
import { type FluxKind, fluxKinds } from './flux.ts';
import type { GitopsContext } from './module.ts';

type Obj = Record<string, unknown>;
const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
const record = (value: unknown) => (value && typeof value === 'object' ? (value as Obj) : {});

/** An object a GitOps tool manages, with the tool's own view of it and the cache's. */
export interface ManagedResource {
  group: string;
  kind: string;
  namespace?: string;
  name: string;
  /** The tool's sync state of it (Argo CD: Synced/OutOfSync), when the tool reports one. */
  sync?: string;
  /** The tool's health of it (Argo CD's), when it reports one. */
  toolHealth?: string;
  /** The cache's health of the live object; `missing` when it is not there. */
  live: LiveHealth;
}

export function applicationSummary(app: KubeObject) {
  const spec = record(app.spec);
  const status = record(app.status);
  const source = record(spec.source ?? (spec.sources as unknown[] | undefined)?.[0]);
  const automated = record(spec.syncPolicy).automated as Obj | undefined;
  const operationState = record(status.operationState);
  const resources = (status.resources as Obj[] | undefined) ?? [];
  return {
    kind: 'Application' as const,
    namespace: app.metadata?.namespace ?? '',
    name: app.metadata?.name ?? '',
    project: text(spec.project),
    source: {
      repoURL: text(source.repoURL),
      path: text(source.path),
      chart: text(source.chart),
      targetRevision: text(source.targetRevision),
    },
    destination: {
      server: text(record(spec.destination).server),
      name: text(record(spec.destination).name),
      namespace: text(record(spec.destination).namespace),
    },
    sync: text(record(status.sync).status) ?? 'Unknown',
    revision: text(record(status.sync).revision),
    health: text(record(status.health).status) ?? 'Unknown',
    healthMessage: text(record(status.health).message),
    automated: automated
      ? {
          enabled: automated.enabled !== false,
          prune: automated.prune === true,
          selfHeal: automated.selfHeal === true,
        }
      : null,
    operation: {
      running: Boolean((app as Obj).operation),
      phase: text(operationState.phase),
      message: text(operationState.message),
      startedAt: text(operationState.startedAt),
      finishedAt: text(operationState.finishedAt),
    },
    outOfSync: resources.filter((r) => r.status === 'OutOfSync').length,
    resourceCount: resources.length,
  };
}

export function fluxSummary(object: KubeObject) {
  const spec = record(object.spec);
  const status = record(object.status);
  const conditions = (status.conditions as Obj[] | undefined) ?? [];
  const ready = conditions.find((c) => c.type === 'Ready');
  const reconciling = conditions.find((c) => c.type === 'Reconciling' && c.status === 'True');
  const sourceRef = record(spec.sourceRef ?? record(record(spec.chart).spec).sourceRef ?? spec.chartRef);
  return {
    kind: object.kind as FluxKind,
    namespace: object.metadata?.namespace ?? '',
    name: object.metadata?.name ?? '',
    ready: text(ready?.status) ?? 'Unknown',
    reason: text(ready?.reason),
    message: text(ready?.message),
    reconciling: Boolean(reconciling),
    suspended: spec.suspend === true,
    // A Kustomization's applied revision, a source's artifact, a HelmRelease's chart version.
    revision:
      text(status.lastAppliedRevision) ??
      text(record(status.artifact).revision) ??
      text(status.lastAttemptedRevision),
    lastHandledReconcileAt: text(status.lastHandledReconcileAt),
    source: text(sourceRef.name)
      ? { kind: text(sourceRef.kind), name: text(sourceRef.name), namespace: text(sourceRef.namespace) }
      : undefined,
  };
}

/** Every Argo CD Application and Flux object the caller's view shows, with its state. */
export function gitopsOverview(ctx: GitopsContext, view: CallerView) {
  const reader = viewReader(ctx, view);
  const applications = reader.get('argoproj.io', 'Application').map(applicationSummary);
  const flux = (Object.entries(fluxKinds) as [FluxKind, string][]).flatMap(([kind, group]) =>
    reader.get(group, kind).map(fluxSummary),
  );
  const order = (a: { namespace: string; name: string }, b: { namespace: string; name: string }) =>
    a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name);
  return { applications: applications.sort(order), flux: flux.sort(order), loading: reader.loading };
}

function cachedObject(ctx: GitopsContext, group: string, kind: string, namespace: string, name: string) {
  const resource = ctx.cluster.find(group, kind);
  const informer = resource ? ctx.cluster.cache.informer(resource) : undefined;
  if (!resource || !informer) throw new AppError('not_found', `the cluster serves no ${kind} (${group})`);
  // Through the cache's rule: 503 while the kind loads, 403 for good when the agent may not list it.
  const object = ctx.cluster.cache.get(resource, name, namespace);
  if (!object) throw new AppError('not_found', `no ${kind} ${namespace}/${name}`);
  return object;
}

/** An Application with the objects it manages: Argo CD's sync and health of each, and the live health; drift is what Argo CD reports OutOfSync. */
export function applicationDetail(ctx: GitopsContext, namespace: string, name: string) {
  const app = cachedObject(ctx, 'argoproj.io', 'Application', namespace, name);
  const status = record(app.status);
  const resources: ManagedResource[] = applicationRefs(app).map(({ entry, ...ref }) => {
    const live = liveHealth(ctx.cluster, ref);
    return {
      ...ref,
      namespace: live.namespace,
      sync: text(entry.status),
      toolHealth: text(record(entry.health).status),
      live: live.status,
    };
  });
  return {
    ...applicationSummary(app),
    resources,
    drift: resources.filter((r) => r.sync === 'OutOfSync'),
    history: ((status.history as Obj[] | undefined) ?? []).map((h) => ({
      id: Number(h.id),
      revision: text(h.revision),
      deployedAt: text(h.deployedAt),
    })),
    conditions: (status.conditions as Obj[] | undefined) ?? [],
  };
}

/**
 * A Flux object with what it applied: a Kustomization's inventory, a HelmRelease's Helm release manifest, each
 * with its live health; drift is what it applied that is no longer there.
 */
export function fluxDetail(
  ctx: GitopsContext,
  decoder: ReleaseDecoder,
  kind: FluxKind,
  namespace: string,
  name: string,
) {
  const object = cachedObject(ctx, fluxKinds[kind], kind, namespace, name);
  const status = record(object.status);
  let resources: ManagedResource[] = [];
  if (kind === 'Kustomization') {
    resources = inventoryRefs(object).map((ref) => {
      const live = liveHealth(ctx.cluster, ref);
      return { ...ref, namespace: live.namespace, live: live.status };
    });
  } else if (kind === 'HelmRelease') {
    const history = ((status.history as Obj[] | undefined) ?? [])[0];
    const spec = record(object.spec);
    const releaseName =
      text(history?.name) ??
      text(spec.releaseName) ??
      (text(spec.targetNamespace) ? `${text(spec.targetNamespace)}-${name}` : name);
    const releaseNamespace = text(history?.namespace) ?? text(spec.storageNamespace) ?? namespace;
    try {
      const release = releaseRevision(releaseRevisions(ctx, decoder, releaseNamespace, releaseName));
      resources = manifestResources(ctx, release).map((r) => {
        const { group } = splitApiVersion(r.apiVersion);
        return { group, kind: r.kind, namespace: r.namespace, name: r.name, live: r.status };
      });
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'not_found')) throw error;
    }
  }
  return {
    ...fluxSummary(object),
    conditions: (status.conditions as Obj[] | undefined) ?? [],
    resources,
    drift: resources.filter((r) => r.live === 'missing'),
  };
}
