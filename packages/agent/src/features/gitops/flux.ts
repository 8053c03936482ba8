import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '@binnacle/common/server';
import type { AgentContext } from '../../context.ts';
import type { Impersonation } from '../../kube/client.ts';
import { type ApiResource, objectPath } from '../../kube/discovery.ts';
import type { KubeObject } from '../../kube/objects.ts';

export const requestedAtAnnotation = 'reconcile.fluxcd.io/requestedAt';

/** The Flux kinds the actions accept, with their API groups. */
export const fluxKinds = {
  GitRepository: 'source.toolkit.fluxcd.io',
  OCIRepository: 'source.toolkit.fluxcd.io',
  HelmRepository: 'source.toolkit.fluxcd.io',
  Bucket: 'source.toolkit.fluxcd.io',
  Kustomization: 'kustomize.toolkit.fluxcd.io',
  HelmRelease: 'helm.toolkit.fluxcd.io',
} as const;
export type FluxKind = keyof typeof fluxKinds;

/** How long sync-with-source waits for the source controller to handle its request, as a bounded `flux` wait. */
const sourceWaitMs = 60_000;

interface FluxObject extends KubeObject {
  spec?: {
    suspend?: boolean;
    sourceRef?: { kind: string; name: string; namespace?: string };
    chart?: { spec?: { sourceRef?: { kind: string; name: string; namespace?: string } } };
    chartRef?: { kind: string; name: string; namespace?: string };
  } & KubeObject['spec'];
  status?: { lastHandledReconcileAt?: string } & KubeObject['status'];
}

/** The kind as written in the path (any case, singular or plural); an unknown one is 400 listing the allowed. */
export function fluxKind(text: string): FluxKind {
  const wanted = text.toLowerCase().replace(/ies$/, 'y').replace(/s$/, '');
  const kind = (Object.keys(fluxKinds) as FluxKind[]).find((k) => k.toLowerCase() === wanted);
  if (!kind)
    throw new AppError(
      'invalid_request',
      `unknown Flux kind "${text}": one of ${Object.keys(fluxKinds).join(', ')}`,
    );
  return kind;
}

const resourceOf = (ctx: AgentContext, kind: FluxKind): ApiResource =>
  ctx.cluster.resolve(kind, fluxKinds[kind]);

function readFlux(ctx: AgentContext, kind: FluxKind, namespace: string, name: string, as?: Impersonation) {
  return ctx.cluster.client.request<FluxObject>({
    path: objectPath(resourceOf(ctx, kind), name, namespace),
    as,
  });
}

function patchFlux(
  ctx: AgentContext,
  kind: FluxKind,
  object: FluxObject,
  patch: Record<string, unknown>,
  as?: Impersonation,
) {
  const { namespace = '', name = '' } = object.metadata ?? {};
  return ctx.cluster.client.request<FluxObject>({
    method: 'PATCH',
    path: objectPath(resourceOf(ctx, kind), name, namespace),
    contentType: 'application/merge-patch+json',
    body: patch,
    as,
  });
}

/** A request's time, RFC 3339 like the flux CLI's (the controller copies it back, it never parses it). */
const requestTime = () => new Date().toISOString();
const requestPatch = (at: string) => ({ metadata: { annotations: { [requestedAtAnnotation]: at } } });

/** `flux reconcile`: the requestedAt annotation, which the controller answers in status.lastHandledReconcileAt. */
export async function reconcileFlux(
  ctx: AgentContext,
  kind: FluxKind,
  namespace: string,
  name: string,
  as?: Impersonation,
) {
  const object = await readFlux(ctx, kind, namespace, name, as);
  const requestedAt = requestTime();
  await patchFlux(ctx, kind, object, requestPatch(requestedAt), as);
  return {
    message: `reconcile of ${kind} ${namespace}/${name} requested`,
    uid: object.metadata?.uid,
    requestedAt,
  };
}

/** The source a Kustomization or HelmRelease takes its artifact from (a HelmRelease's chart source). */
function sourceOf(kind: FluxKind, object: FluxObject): { kind: FluxKind; name: string; namespace: string } {
  const namespace = object.metadata?.namespace ?? '';
  const ref =
    kind === 'Kustomization'
      ? object.spec?.sourceRef
      : kind === 'HelmRelease'
        ? (object.spec?.chart?.spec?.sourceRef ?? object.spec?.chartRef)
        : undefined;
  if (!ref)
    throw new AppError(
      'invalid_request',
      kind === 'Kustomization' || kind === 'HelmRelease'
        ? `${kind} ${namespace}/${object.metadata?.name} names no source`
        : `sync-with-source is for Kustomization and HelmRelease; a ${kind} is a source: reconcile it`,
    );
  return { kind: fluxKind(ref.kind), name: ref.name, namespace: ref.namespace ?? namespace };
}

/**
 * `flux reconcile … --with-source`: the source first (requestedAt, then waiting until its controller has
 * handled that request), then the object itself. A source its controller does not handle within a minute is
 * 504 `not_reconciled`, and the object is left alone.
 */
export async function syncWithSource(
  ctx: AgentContext,
  kind: FluxKind,
  namespace: string,
  name: string,
  as?: Impersonation,
) {
  const object = await readFlux(ctx, kind, namespace, name, as);
  const source = sourceOf(kind, object);
  const sourceObject = await readFlux(ctx, source.kind, source.namespace, source.name, as);
  const sourceRequestedAt = requestTime();
  await patchFlux(ctx, source.kind, sourceObject, requestPatch(sourceRequestedAt), as);
  const deadline = Date.now() + sourceWaitMs;
  for (;;) {
    const now = await readFlux(ctx, source.kind, source.namespace, source.name, as);
    if (now.status?.lastHandledReconcileAt === sourceRequestedAt) break;
    if (Date.now() > deadline)
      throw new AppError(
        'not_reconciled',
        `${source.kind} ${source.namespace}/${source.name} was not reconciled within ${sourceWaitMs / 1000} s (is its controller running?); ${kind} ${namespace}/${name} was left alone`,
      );
    await sleep(500);
  }
  const requestedAt = requestTime();
  await patchFlux(ctx, kind, object, requestPatch(requestedAt), as);
  return {
    message: `${source.kind} ${source.namespace}/${source.name} reconciled, then reconcile of ${kind} ${namespace}/${name} requested`,
    uid: object.metadata?.uid,
    requestedAt,
    source: { ...source, requestedAt: sourceRequestedAt },
  };
}

/**
 * `flux suspend` / `flux resume`: `spec.suspend`; resuming also requests a reconcile, as the CLI does. Already in
 * that state: 200 and no change, said so.
 */
export async function setFluxSuspended(
  ctx: AgentContext,
  kind: FluxKind,
  namespace: string,
  name: string,
  suspend: boolean,
  as?: Impersonation,
) {
  const object = await readFlux(ctx, kind, namespace, name, as);
  if ((object.spec?.suspend === true) === suspend)
    return {
      message: `${kind} ${namespace}/${name} was already ${suspend ? 'suspended' : 'running'}: nothing changed`,
      uid: object.metadata?.uid,
      changed: false,
      suspended: suspend,
    };
  const requestedAt = suspend ? undefined : requestTime();
  await patchFlux(
    ctx,
    kind,
    object,
    { spec: { suspend }, ...(requestedAt ? requestPatch(requestedAt) : {}) },
    as,
  );
  return {
    message: `${kind} ${namespace}/${name} ${suspend ? 'suspended' : 'resumed'}`,
    uid: object.metadata?.uid,
    changed: true,
    suspended: suspend,
    ...(requestedAt ? { requestedAt } : {}),
  };
}
