import { errorResponses, Query } from '@binnacle/common/server';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { actionAnswer, KubeObjectSchema, NamespaceParam, ObjectNameParam } from '../../http/schemas.ts';
import { bodyMayBeEmpty, performAction } from '../../scope/actions.ts';
import { type Workload, workloadResource } from './kinds.ts';
import type { WorkloadsContext } from './module.ts';
import {
  podsLimit,
  replicaBounds,
  restartWorkload,
  rollbackWorkload,
  scaleWorkload,
  workloadPods,
  workloadRevisions,
} from './service.ts';

const tags = ['workloads'];
const Params = Type.Object({
  kind: Type.String({
    minLength: 1,
    maxLength: 253,
    pattern: '^[A-Za-z0-9][A-Za-z0-9.-]*$',
    description:
      'deployments, statefulsets, daemonsets or rollouts (any name kubectl takes: deploy, sts, ds …)',
  }),
  namespace: NamespaceParam,
  name: ObjectNameParam,
});
type Request = FastifyRequest<{ Params: { kind: string; namespace: string; name: string } }>;

const Revision = Type.Object({
  revision: Type.Integer(),
  source: Type.Object({ kind: Type.Enum(['ReplicaSet', 'ControllerRevision']), name: Type.String() }),
  createdAt: Type.Optional(Type.String()),
  current: Type.Boolean(),
  images: Type.Array(Type.String()),
  changeCause: Type.Optional(Type.String()),
  template: Type.Object({}, { additionalProperties: true, description: 'the pod template of the revision' }),
});

export function workloadRoutes(app: App, ctx: WorkloadsContext): void {
  const workloadOf = (request: Request): Workload => ({
    resource: workloadResource(ctx, request.params.kind),
    namespace: request.params.namespace,
    name: request.params.name,
  });
  /** Runs a workload action as the caller, audited and recorded in the timeline. */
  const act = <T extends { message: string; uid?: string }>(
    request: Request,
    action: string,
    work: (w: Workload) => Promise<T>,
  ) => {
    const w = workloadOf(request);
    const target = { kind: w.resource.kind, group: w.resource.group, namespace: w.namespace, name: w.name };
    return performAction(ctx, request.caller, action, target, () => work(w));
  };
  const noQuery = Query({});

  app.post(
    '/api/workloads/:kind/:namespace/:name/restart',
    {
      config: callerAware,
      schema: {
        tags,
        summary:
          'Restart every pod, as `kubectl rollout restart` does (a new restartedAt pod-template annotation; Rollouts: spec.restartAt)',
        params: Params,
        querystring: noQuery,
        response: {
          200: Type.Object({ ...actionAnswer, restartedAt: Type.String() }),
          ...errorResponses,
        },
      },
    },
    (request) => act(request, 'restart', (w) => restartWorkload(ctx, w, request.caller)),
  );

  app.post(
    '/api/workloads/:kind/:namespace/:name/scale',
    {
      config: callerAware,
      schema: {
        tags,
        summary: `Set the replica count through the scale subresource (${replicaBounds.min}–${replicaBounds.max}); DaemonSets cannot be scaled`,
        params: Params,
        querystring: noQuery,
        body: Type.Object(
          { replicas: Type.Integer({ minimum: replicaBounds.min, maximum: replicaBounds.max }) },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            ...actionAnswer,
            replicas: Type.Integer(),
            previous: Type.Integer(),
            warning: Type.Optional(
              Type.String({ description: 'set when a HorizontalPodAutoscaler manages the replicas' }),
            ),
          }),
          ...errorResponses,
        },
      },
    },
    (request) => act(request, 'scale', (w) => scaleWorkload(ctx, w, request.body.replicas, request.caller)),
  );

  app.post(
    '/api/workloads/:kind/:namespace/:name/rollback',
    {
      config: callerAware,
      preValidation: bodyMayBeEmpty,
      schema: {
        tags,
        summary:
          'Roll back to a revision of the history, as `kubectl rollout undo --to-revision` does; without a revision, to the one before the newest',
        params: Params,
        querystring: noQuery,
        body: Type.Object(
          { revision: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 })) },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            ...actionAnswer,
            revision: Type.Integer(),
            changed: Type.Boolean({ description: 'false when the workload already ran that template' }),
          }),
          ...errorResponses,
        },
      },
    },
    (request) =>
      act(request, 'rollback', (w) => rollbackWorkload(ctx, w, request.body.revision, request.caller)),
  );

  app.get(
    '/api/workloads/:kind/:namespace/:name/revisions',
    {
      config: callerAware,
      schema: {
        tags,
        summary:
          'The rollout history (ReplicaSets of Deployments and Rollouts, ControllerRevisions of StatefulSets and DaemonSets), newest first',
        params: Params,
        querystring: noQuery,
        response: {
          200: Type.Object({
            kind: Type.String(),
            namespace: Type.String(),
            name: Type.String(),
            items: Type.Array(Revision),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const w = workloadOf(request);
      return {
        kind: w.resource.kind,
        namespace: w.namespace,
        name: w.name,
        items: await workloadRevisions(ctx, w, request.caller),
      };
    },
  );

  app.get(
    '/api/workloads/:kind/:namespace/:name/pods',
    {
      config: {
        callerAware: true,
        callerAccess: (request: FastifyRequest) => ({
          verb: 'list',
          group: '',
          resource: 'pods',
          namespace: (request.params as { namespace: string }).namespace,
        }),
      },
      schema: {
        tags,
        summary: "The pods the workload's selector matches, from the cache, sorted by name",
        params: Params,
        querystring: Query({
          limit: Type.Optional(
            Type.Integer({ minimum: 1, maximum: podsLimit.max, default: podsLimit.default }),
          ),
        }),
        response: {
          200: Type.Object({
            kind: Type.String(),
            namespace: Type.String(),
            name: Type.String(),
            selector: Type.Object({}, { additionalProperties: true }),
            total: Type.Integer(),
            items: Type.Array(KubeObjectSchema),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const w = workloadOf(request);
      const pods = await workloadPods(ctx, w, request.query.limit ?? podsLimit.default, request.caller);
      return { kind: w.resource.kind, namespace: w.namespace, name: w.name, ...pods };
    },
  );
}
