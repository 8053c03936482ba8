import { errorResponses, Query } from '@binnacle/common/server';
import type { FastifyRequest } from 'fastify';
import { type TProperties, Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware, requireAccess } from '../../http/caller.ts';
import { callerView } from '../../http/caller-view.ts';
import { requestedNamespaces } from '../../http/query.ts';
import { actionAnswer, NamespaceParam, ObjectNameParam } from '../../http/schemas.ts';
import { bodyMayBeEmpty, performAction } from '../../scope/actions.ts';
import { ReleaseDecoder } from '../../scope/helm-releases.ts';
import {
  refreshApplication,
  type SyncRequest,
  setAutomatedSync,
  syncApplication,
  terminateOperation,
} from './argocd.ts';
import {
  type FluxTarget,
  fluxKind,
  fluxKinds,
  reconcileFlux,
  setFluxSuspended,
  syncWithSource,
} from './flux.ts';
import type { GitopsContext } from './module.ts';
import { ApplicationDetail, ApplicationSummary, FluxDetail, FluxSummary, SyncedSources } from './schemas.ts';
import { applicationDetail, fluxDetail, gitopsOverview } from './views.ts';

const Params = Type.Object({ namespace: NamespaceParam, name: ObjectNameParam });
type Params = { namespace: string; name: string };
const SyncBody = Type.Object(
  {
    revision: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    prune: Type.Optional(Type.Boolean()),
    dryRun: Type.Optional(Type.Boolean()),
    applyOnly: Type.Optional(Type.Boolean({ description: 'strategy apply: skip hooks' })),
    force: Type.Optional(Type.Boolean()),
    serverSideApply: Type.Optional(Type.Boolean()),
    replace: Type.Optional(Type.Boolean()),
    resources: Type.Optional(
      Type.Array(
        Type.Object(
          {
            group: Type.Optional(Type.String({ maxLength: 253 })),
            kind: Type.String({ minLength: 1, maxLength: 63 }),
            name: Type.String({ minLength: 1, maxLength: 253 }),
            namespace: Type.Optional(NamespaceParam),
          },
          { additionalProperties: false },
        ),
        { maxItems: 500 },
      ),
    ),
  },
  { additionalProperties: false },
);

/**
 * GitOps actions with the exact object changes of the controllers' own tools: Argo CD's API (gitops-a) and the
 * flux CLI (gitops-b). Each is made as the caller, audited and recorded in the timeline.
 */
export function gitopsRoutes(app: App, ctx: GitopsContext): void {
  gitopsReadRoutes(app, ctx);
  const argo = (
    request: FastifyRequest,
    action: string,
    work: (p: Params) => Promise<{ message: string; uid?: string }>,
  ) => {
    const params = request.params as Params;
    const target = { kind: 'Application', group: 'argoproj.io', ...params };
    return performAction(ctx, request.caller, action, target, () => work(params));
  };
  const schema = (
    tags: string[],
    summary: string,
    params: ReturnType<typeof Type.Object>,
    body?: ReturnType<typeof Type.Object>,
    answer: TProperties = {},
  ) => ({
    tags,
    summary,
    params,
    querystring: Query({}),
    ...(body ? { body } : {}),
    response: {
      200: Type.Object({ ...actionAnswer, ...answer }, { additionalProperties: true }),
      ...errorResponses,
    },
  });
  const argoTags = ['gitops-a'];
  const appPath = '/api/gitops-a/applications/:namespace/:name';

  app.post(
    `${appPath}/sync`,
    {
      config: callerAware,
      preValidation: bodyMayBeEmpty,
      schema: schema(
        argoTags,
        "Sync: the `operation` Argo CD's API writes (revision, prune, dry-run, strategy hook or apply with force, ServerSideApply/Replace options, selected resources, initiatedBy); 409 while another runs",
        Params,
        SyncBody,
      ),
    },
    (request) =>
      argo(request, 'sync', async ({ namespace, name }) => {
        const actor = request.caller?.user ?? (await ctx.cluster.identity()).user;
        return syncApplication(ctx, namespace, name, request.body as SyncRequest, actor, request.caller);
      }),
  );

  app.post(
    `${appPath}/refresh`,
    {
      config: callerAware,
      preValidation: bodyMayBeEmpty,
      schema: schema(
        argoTags,
        'Refresh: the argocd.argoproj.io/refresh annotation, "normal" or with hard=true "hard"',
        Params,
        Type.Object({ hard: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
      ),
    },
    (request) =>
      argo(request, 'refresh', ({ namespace, name }) =>
        refreshApplication(
          ctx,
          namespace,
          name,
          (request.body as { hard?: boolean }).hard ?? false,
          request.caller,
        ),
      ),
  );

  app.post(
    `${appPath}/terminate`,
    {
      config: callerAware,
      schema: schema(
        argoTags,
        'Terminate the running operation (its phase becomes Terminating); 409 when none runs',
        Params,
      ),
    },
    (request) =>
      argo(request, 'terminate', ({ namespace, name }) =>
        terminateOperation(ctx, namespace, name, request.caller),
      ),
  );

  for (const [action, enabled] of [
    ['suspend', false],
    ['resume', true],
  ] as const) {
    app.post(
      `${appPath}/${action}`,
      {
        config: callerAware,
        schema: schema(
          argoTags,
          enabled
            ? 'Resume automated sync (spec.syncPolicy.automated.enabled: true), prune and selfHeal as they were'
            : 'Suspend automated sync (spec.syncPolicy.automated.enabled: false), keeping prune and selfHeal',
          Params,
        ),
      },
      (request) =>
        argo(request, action, ({ namespace, name }) =>
          setAutomatedSync(ctx, namespace, name, enabled, request.caller),
        ),
    );
  }

  const fluxTags = ['gitops-b'];
  const FluxParams = Type.Object({
    kind: Type.String({ minLength: 1, maxLength: 63, description: Object.keys(fluxKinds).join(', ') }),
    namespace: NamespaceParam,
    name: ObjectNameParam,
  });
  const flux = (
    request: FastifyRequest,
    action: string,
    work: (target: FluxTarget) => Promise<{ message: string; uid?: string }>,
  ) => {
    const { kind: text, namespace, name } = request.params as Params & { kind: string };
    const target = { kind: fluxKind(text), namespace, name };
    return performAction(ctx, request.caller, action, { ...target, group: fluxKinds[target.kind] }, () =>
      work(target),
    );
  };
  const fluxPath = '/api/gitops-b/:kind/:namespace/:name';
  const fluxActions = [
    [
      'reconcile',
      'Reconcile now: the reconcile.fluxcd.io/requestedAt annotation (as `flux reconcile`)',
      (target, as) => reconcileFlux(ctx, target, as),
    ],
    [
      'sync-with-source',
      'Reconcile the source first and wait until it is handled, then the Kustomization or HelmRelease (as `flux reconcile --with-source`)',
      (target, as) => syncWithSource(ctx, target, as),
    ],
    [
      'suspend',
      'Suspend reconciliation (spec.suspend: true)',
      (target, as) => setFluxSuspended(ctx, target, true, as),
    ],
    [
      'resume',
      'Resume reconciliation (spec.suspend: false) and request a reconcile, as `flux resume`',
      (target, as) => setFluxSuspended(ctx, target, false, as),
    ],
  ] as const satisfies readonly (readonly [
    string,
    string,
    (target: FluxTarget, as: FastifyRequest['caller']) => Promise<{ message: string; uid?: string }>,
  ])[];
  for (const [action, summary, work] of fluxActions) {
    app.post(
      `${fluxPath}/${action}`,
      {
        config: callerAware,
        schema: schema(
          fluxTags,
          summary,
          FluxParams,
          undefined,
          action === 'sync-with-source' ? SyncedSources : {},
        ),
      },
      (request) => flux(request, action, (target) => work(target, request.caller)),
    );
  }
}

/** The read views of the GitOps page: every application and Flux object, and one with what it manages. */
function gitopsReadRoutes(app: App, ctx: GitopsContext): void {
  const decoder = new ReleaseDecoder();
  /** A caller may read an object's view when it may get that object. */
  const mayGet = (request: FastifyRequest, group: string, kind: string, namespace: string) => {
    const resource = ctx.cluster.resolve(kind, group);
    return requireAccess(ctx, request.caller, { verb: 'get', group, resource: resource.plural, namespace });
  };

  app.get(
    '/api/gitops',
    {
      config: callerAware,
      schema: {
        tags: ['gitops-a', 'gitops-b'],
        summary:
          "Argo CD Applications (sync, health, automated policy, operation) and Flux objects (Ready, suspended, revision, last handled reconcile) in the caller's view",
        querystring: Query({
          namespace: Type.Optional(NamespaceParam),
          namespaces: Type.Optional(Type.String({ minLength: 1, description: 'comma-separated namespaces' })),
        }),
        response: {
          200: Type.Object({
            applications: Type.Array(ApplicationSummary),
            flux: Type.Array(FluxSummary),
            loading: Type.Array(Type.String()),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) =>
      gitopsOverview(ctx, await callerView(ctx, request.caller, requestedNamespaces(request.query))),
  );

  app.get(
    '/api/gitops-a/applications/:namespace/:name',
    {
      config: callerAware,
      schema: {
        tags: ['gitops-a'],
        summary:
          "An Application with its managed objects (Argo CD's sync and health of each, and the live health), drift and history",
        params: Params,
        querystring: Query({}),
        response: { 200: ApplicationDetail, ...errorResponses },
      },
    },
    async (request) => {
      const { namespace, name } = request.params;
      await mayGet(request, 'argoproj.io', 'Application', namespace);
      return applicationDetail(ctx, namespace, name);
    },
  );

  app.get(
    '/api/gitops-b/:kind/:namespace/:name',
    {
      config: callerAware,
      schema: {
        tags: ['gitops-b'],
        summary:
          "A Flux object with its conditions and what it applied (a Kustomization's inventory, a HelmRelease's Helm release), each with its live health; drift is what is gone",
        params: Type.Object({
          kind: Type.String({ minLength: 1, maxLength: 63 }),
          namespace: NamespaceParam,
          name: ObjectNameParam,
        }),
        querystring: Query({}),
        response: { 200: FluxDetail, ...errorResponses },
      },
    },
    async (request) => {
      const { namespace, name } = request.params;
      const kind = fluxKind(request.params.kind);
      await mayGet(request, fluxKinds[kind], kind, namespace);
      return fluxDetail(ctx, decoder, kind, namespace, name);
    },
  );
}
