import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeObject } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import type { Impersonation } from '../../kube/client.ts';
import { type ApiResource, objectPath } from '../../kube/discovery.ts';
import type { GitopsContext } from './module.ts';

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

/** How long sync-with-source waits for each source's controller to handle its request, as a bounded `flux` wait. */
const sourceWaitMs = 60_000;

/** The kinds a sync-with-source passes through: the action kinds and the HelmChart helm-controller makes. */
type StepKind = FluxKind | 'HelmChart';
const groupOf = (kind: StepKind) => (kind === 'HelmChart' ? fluxKinds.HelmRepository : fluxKinds[kind]);

/** A Flux object by kind, namespace and name: one the actions name, or a source on the way. */
interface Step {
  kind: StepKind;
  name: string;
  namespace: string;
}
/** A Flux object the actions name. */
export type FluxTarget = Step & { kind: FluxKind };

interface SourceRef {
  kind: string;
  name: string;
  namespace?: string;
}
interface FluxObject extends KubeObject {
  spec?: {
    suspend?: boolean;
    sourceRef?: SourceRef;
    chart?: { spec?: { sourceRef?: SourceRef } };
    chartRef?: SourceRef;
  } & KubeObject['spec'];
  status?: {
    lastHandledReconcileAt?: string;
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
  } & KubeObject['status'];
}

/** The kind as written in the path (any case, singular or plural); an unknown one is 400 listing the allowed. */
export function fluxKind(text: string): FluxKind {
  const wanted = text.toLowerCase().replace(/ies$/, 'y').replace(/s$/, '');
  const kind = (Object.keys(fluxKinds) as FluxKind[]).find((k) => k.toLowerCase() === wanted);
  if (!kind)
    throw new AppError(
      'unknown_kind',
      `unknown Flux kind "${text}": one of ${Object.keys(fluxKinds).join(', ')}`,
    );
  return kind;
}

const resourceOf = (ctx: GitopsContext, kind: StepKind): ApiResource =>
  ctx.cluster.resolve(kind, groupOf(kind));

function readFlux(ctx: GitopsContext, { kind, namespace, name }: Step, as?: Impersonation) {
  return ctx.cluster.client.request<FluxObject>({
    path: objectPath(resourceOf(ctx, kind), name, namespace),
    as,
  });
}

function patchFlux(
  ctx: GitopsContext,
  kind: StepKind,
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

/** As the flux CLI: a suspended object ignores reconcile requests, so asking is refused (409), not silently lost. */
function refuseSuspended(kind: StepKind, object: FluxObject): void {
  if (object.spec?.suspend !== true) return;
  const { namespace, name } = object.metadata ?? {};
  throw new AppError(
    'conflict',
    `${kind} ${namespace}/${name} is suspended: resume it (resuming also reconciles)`,
  );
}

/** A request's time, RFC 3339 like the flux CLI's (the controller copies it back, it never parses it). */
const requestTime = () => new Date().toISOString();
const requestPatch = (at: string) => ({ metadata: { annotations: { [requestedAtAnnotation]: at } } });

/** `flux reconcile`: the requestedAt annotation, which the controller answers in status.lastHandledReconcileAt. */
export async function reconcileFlux(ctx: GitopsContext, target: FluxTarget, as?: Impersonation) {
  const { kind, namespace, name } = target;
  const object = await readFlux(ctx, target, as);
  refuseSuspended(kind, object);
  const requestedAt = requestTime();
  await patchFlux(ctx, kind, object, requestPatch(requestedAt), as);
  return {
    message: `reconcile of ${kind} ${namespace}/${name} requested`,
    uid: object.metadata?.uid,
    requestedAt,
  };
}

const sourceKinds: readonly StepKind[] = [
  'GitRepository',
  'OCIRepository',
  'HelmRepository',
  'Bucket',
  'HelmChart',
];

function stepOf(ref: SourceRef, namespace: string, owner: string): Step {
  const kind = sourceKinds.find((k) => k === ref.kind);
  if (!kind)
    throw new AppError(
      'invalid_request',
      `${owner} names a source of kind "${ref.kind}", which Flux does not have`,
    );
  return { kind, name: ref.name, namespace: ref.namespace ?? namespace };
}

/**
 * The sources to reconcile first, in order, as `flux reconcile … --with-source` walks them: a Kustomization's
 * `sourceRef`; a HelmRelease's chart source and then the HelmChart helm-controller made from its chart template
 * (`<namespace>-<name>`, in the source's namespace), or its `chartRef` (a HelmChart after that chart's own source).
 */
async function sourceSteps(
  ctx: GitopsContext,
  kind: FluxKind,
  object: FluxObject,
  as?: Impersonation,
): Promise<Step[]> {
  const namespace = object.metadata?.namespace ?? '';
  const owner = `${kind} ${namespace}/${object.metadata?.name}`;
  if (kind !== 'Kustomization' && kind !== 'HelmRelease')
    throw new AppError(
      'invalid_request',
      `sync-with-source is for Kustomization and HelmRelease; a ${kind} is a source: reconcile it`,
    );
  const spec = object.spec ?? {};
  if (kind === 'Kustomization') {
    if (!spec.sourceRef) throw new AppError('invalid_request', `${owner} names no source`);
    return [stepOf(spec.sourceRef, namespace, owner)];
  }
  const chartSource = spec.chart?.spec?.sourceRef;
  if (chartSource) {
    const source = stepOf(chartSource, namespace, owner);
    const chart = {
      kind: 'HelmChart',
      name: `${namespace}-${object.metadata?.name}`,
      namespace: source.namespace,
    };
    return [source, chart] as Step[];
  }
  if (!spec.chartRef) throw new AppError('invalid_request', `${owner} names no chart source`);
  const chartRef = stepOf(spec.chartRef, namespace, owner);
  if (chartRef.kind !== 'HelmChart') return [chartRef];
  const chart = await readFlux(ctx, chartRef, as);
  const chartOwner = `HelmChart ${chartRef.namespace}/${chartRef.name}`;
  if (!chart.spec?.sourceRef) throw new AppError('invalid_request', `${chartOwner} names no source`);
  return [stepOf(chart.spec.sourceRef, chartRef.namespace, chartOwner), chartRef];
}

/** Requests a reconcile of one source and waits until its controller has handled it and it is not failing. */
async function reconcileSource(ctx: GitopsContext, step: Step, object: FluxObject, as?: Impersonation) {
  const label = `${step.kind} ${step.namespace}/${step.name}`;
  const requestedAt = requestTime();
  await patchFlux(ctx, step.kind, object, requestPatch(requestedAt), as);
  const deadline = Date.now() + sourceWaitMs;
  for (;;) {
    const now = await readFlux(ctx, step, as);
    if (now.status?.lastHandledReconcileAt === requestedAt) {
      const ready = now.status.conditions?.find((c) => c.type === 'Ready');
      if (ready?.status === 'False')
        throw new AppError(
          'reconcile_failed',
          `${label} failed to reconcile (${ready.reason}: ${ready.message})`,
        );
      return { ...step, requestedAt };
    }
    if (Date.now() > deadline)
      throw new AppError(
        'not_reconciled',
        `${label} was not reconciled within ${sourceWaitMs / 1000} s (is its controller running?)`,
      );
    await sleep(500);
  }
}

/**
 * `flux reconcile … --with-source`: each source in turn (requestedAt, then waiting until its controller has
 * handled that request), then the object itself. Everything is read first, so a missing (404) or suspended (409)
 * link changes nothing; a source not handled within a minute is 504 `not_reconciled`, one that fails is 502
 * `reconcile_failed`, and what comes after it is left alone.
 */
export async function syncWithSource(ctx: GitopsContext, target: FluxTarget, as?: Impersonation) {
  const { kind, namespace, name } = target;
  const object = await readFlux(ctx, target, as);
  refuseSuspended(kind, object);
  const steps = await sourceSteps(ctx, kind, object, as);
  const linked = await Promise.all(
    steps.map(async (step) => ({
      step,
      object: await readFlux(ctx, step, as),
    })),
  );
  for (const { step, object: source } of linked) refuseSuspended(step.kind, source);
  const sources = [];
  for (const { step, object: source } of linked) sources.push(await reconcileSource(ctx, step, source, as));
  const requestedAt = requestTime();
  await patchFlux(ctx, kind, object, requestPatch(requestedAt), as);
  const chain = sources.map((s) => `${s.kind} ${s.namespace}/${s.name}`).join(', then ');
  return {
    message: `${chain} reconciled, then reconcile of ${kind} ${namespace}/${name} requested`,
    uid: object.metadata?.uid,
    requestedAt,
    sources,
  };
}

/**
 * `flux suspend` / `flux resume`: `spec.suspend`; resuming also requests a reconcile, as the CLI does. Already in
 * that state: 200 and no change, said so.
 */
export async function setFluxSuspended(
  ctx: GitopsContext,
  target: FluxTarget,
  suspend: boolean,
  as?: Impersonation,
) {
  const { kind, namespace, name } = target;
  const object = await readFlux(ctx, target, as);
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
