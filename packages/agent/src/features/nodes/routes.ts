import { Duration, errorResponses, Query } from '@binnacle/common/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { actionAnswer, ImageRef, NamespaceParam, ObjectNameParam } from '../../http/schemas.ts';
import { type ActionOutcome, bodyMayBeEmpty, performAction } from '../../scope/actions.ts';
import { startNodeDebugger, stopNodeDebuggers } from './debug-pod.ts';
import { DrainFitAnswer, FitQuery } from './fit-schemas.ts';
import { drainFitOf } from './fit-service.ts';
import type { NodesContext } from './module.ts';
import { drainNode, drainTimeout, setSchedulable } from './service.ts';

const tags = ['nodes'];
const Params = Type.Object({ name: ObjectNameParam });
type Request = FastifyRequest<{ Params: { name: string } }>;
const noQuery = Query({});
const Schedulability = Type.Object({
  ...actionAnswer,
  unschedulable: Type.Boolean(),
  changed: Type.Boolean({ description: 'false when the node already was in that state' }),
});
const DrainPod = Type.Object({
  namespace: Type.String(),
  name: Type.String(),
  status: Type.Enum(['evicted', 'terminating', 'blocked', 'failed', 'skipped', 'refused', 'planned'], {
    description:
      'evicted: gone; terminating: eviction accepted, not gone by the timeout; blocked: a PodDisruptionBudget refused until the timeout; failed: the eviction failed; skipped: left on purpose (DaemonSet, mirror pod); refused: needs a switch, nothing was evicted; planned: a dry run would evict it',
  }),
  reason: Type.Optional(Type.String()),
});

const DrainBody = Type.Object(
  {
    ignoreDaemonSets: Type.Optional(
      Type.Boolean({ default: true, description: 'leave DaemonSet pods on the node' }),
    ),
    deleteEmptyDirData: Type.Optional(
      Type.Boolean({ default: false, description: 'evict pods with emptyDir volumes (their data is lost)' }),
    ),
    force: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'evict pods no controller recreates, and pods of DaemonSets that no longer exist',
      }),
    ),
    gracePeriodSeconds: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 86_400, description: "default: each pod's own" }),
    ),
    timeout: Type.Optional(
      Duration({
        maxLength: 16,
        description: `how long to keep evicting and waiting, e.g. 90s or 5m (default ${drainTimeout.default})`,
      }),
    ),
    dryRun: Type.Optional(
      Type.Boolean({ description: 'only say what would be evicted; nothing is cordoned or evicted' }),
    ),
  },
  { additionalProperties: false },
);
const DebugBody = Type.Object(
  {
    image: Type.Optional(ImageRef),
    namespace: Type.Optional(NamespaceParam),
    command: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 4096 }), { maxItems: 64 })),
  },
  { additionalProperties: false },
);

/** Stops work (a drain's retries and waits) when the client goes away before its answer. */
function whileClientWaits(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableEnded) controller.abort(new Error('the client went away'));
  });
  return controller.signal;
}

export function nodeRoutes(app: App, ctx: NodesContext): void {
  const act = <T extends ActionOutcome>(
    request: Request,
    action: string,
    work: () => Promise<T>,
    options?: { dryRun?: boolean },
  ) =>
    performAction(
      ctx,
      request.caller,
      action,
      { kind: 'Node', group: '', name: request.params.name },
      work,
      options,
    );
  const schema = (summary: string, answer: TSchema) => ({
    tags,
    summary,
    params: Params,
    querystring: noQuery,
    response: { 200: answer, ...errorResponses },
  });

  for (const [action, schedulable] of [
    ['cordon', false],
    ['uncordon', true],
  ] as const) {
    app.post(
      `/api/nodes/:name/${action}`,
      {
        config: callerAware,
        schema: schema(
          schedulable
            ? 'Mark the node schedulable again (`kubectl uncordon`)'
            : 'Mark the node unschedulable; its pods stay (`kubectl cordon`)',
          Schedulability,
        ),
      },
      (request) =>
        act(request, action, () => setSchedulable(ctx, request.params.name, schedulable, request.caller)),
    );
  }

  app.post(
    '/api/nodes/:name/drain',
    {
      config: callerAware,
      preValidation: bodyMayBeEmpty,
      schema: {
        ...schema(
          `Cordon the node and evict its pods through the Eviction API, honouring PodDisruptionBudgets (retried every 5 s) until the timeout (default ${drainTimeout.default}, at most 15m). Answers 200 when the node is empty but for pods left on purpose, else 409 drain_incomplete carrying the same report; the node stays cordoned either way.`,
          Type.Object({
            ...actionAnswer,
            node: Type.String(),
            cordoned: Type.Boolean(),
            complete: Type.Boolean(),
            dryRun: Type.Boolean(),
            pods: Type.Array(DrainPod),
          }),
        ),
        body: DrainBody,
      },
    },
    (request, reply) =>
      act(
        request,
        'drain',
        () => drainNode(ctx, request.params.name, request.body, whileClientWaits(reply), request.caller),
        { dryRun: request.body.dryRun },
      ),
  );

  app.get(
    '/api/nodes/drain-fit',
    {
      config: callerAware,
      schema: {
        tags,
        summary:
          "What draining nodes would do, before anything is cordoned or evicted: where each evicted pod's replacement fits (the scheduler's filters: requests, node selectors and affinity, taints, cordons, pod count, required anti-affinity) or why it would stay Pending in the scheduler's words, which PodDisruptionBudgets block, and an order of the nodes in batches that keeps every budget satisfied",
        querystring: FitQuery,
        response: { 200: DrainFitAnswer, ...errorResponses },
      },
    },
    (request) => drainFitOf(ctx, request.query, request.caller),
  );

  const DebugAnswer = Type.Object({
    ...actionAnswer,
    pod: Type.String(),
    podNamespace: Type.String(),
    container: Type.String(),
    image: Type.String(),
  });
  app.post(
    '/api/nodes/:name/debug',
    {
      config: callerAware,
      preValidation: bodyMayBeEmpty,
      schema: {
        ...schema(
          'Start a privileged debugger pod on the node (host PID, network and IPC; the node root at /host), as `kubectl debug node/<name> --profile=sysadmin`; exec into it to work on the node',
          DebugAnswer,
        ),
        body: DebugBody,
        response: { 201: DebugAnswer, ...errorResponses },
      },
    },
    async (request, reply) => {
      const answer = await act(request, 'debug', () =>
        startNodeDebugger(ctx, request.params.name, request.body, request.caller),
      );
      return reply.code(201).send(answer);
    },
  );

  app.delete(
    '/api/nodes/:name/debug',
    {
      config: callerAware,
      schema: {
        ...schema(
          "Delete the node's debugger pods (those started by POST …/debug) in a namespace",
          Type.Object({ ...actionAnswer, podNamespace: Type.String(), deleted: Type.Array(Type.String()) }),
        ),
        querystring: Query({ namespace: Type.Optional(NamespaceParam) }),
      },
    },
    (request) =>
      act(request, 'stop-debug', () =>
        stopNodeDebuggers(ctx, request.params.name, request.query.namespace ?? 'default', request.caller),
      ),
  );
}
