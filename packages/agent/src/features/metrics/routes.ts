import { errorResponses, Query } from '@binnacle/common/server';
import type { FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { NamespaceParam, ObjectNameParam } from '../../http/schemas.ts';
import type { AccessAttributes } from '../../kube/access-review.ts';
import type { MetricsContext } from './module.ts';
import { history, nodeMetrics, podMetrics, topNodes, topPods } from './service.ts';

const tags = ['metrics'];

const usage = {
  cpuMillicores: Type.Number({ description: 'CPU in millicores (1000 = one core)' }),
  memoryBytes: Type.Integer({ description: 'working-set memory in bytes' }),
};
const Container = Type.Object({ name: Type.String(), ...usage });
const sampleFields = {
  name: Type.String(),
  ...usage,
  timestamp: Type.String({ description: 'end of the window metrics-server measured over (RFC 3339)' }),
  windowSeconds: Type.Number(),
};
const Unavailable = Type.Object({
  available: Type.Literal(false),
  reason: Type.Enum(['not_installed', 'not_available']),
  diagnosis: Type.String({ description: 'what is wrong, from the APIService v1beta1.metrics.k8s.io' }),
});
const liveAnswer = (fields: Record<string, TSchema>) =>
  Type.Union([Type.Object({ available: Type.Literal(true), ...fields }), Unavailable]);
const Sort = Type.Enum(['cpu', 'memory', 'name'], {
  default: 'cpu',
  description: 'highest CPU or memory first, or by namespace and name',
});
const Limit = Type.Integer({ minimum: 1, maximum: 10_000, description: 'rows to return (default all)' });
const HistoryAnswer = (fields: Record<string, TSchema>, perContainer: boolean) =>
  Type.Object({
    ...fields,
    available: Type.Boolean({ description: 'whether metrics.k8s.io answers now' }),
    diagnosis: Type.Optional(Type.String()),
    pollSeconds: Type.Number({ description: 'one sample per poll (--metrics-poll-interval)' }),
    capacity: Type.Integer({ description: 'samples kept, oldest dropped first (--metrics-history)' }),
    lastPoll: Type.Optional(Type.Object({ at: Type.String(), error: Type.Optional(Type.String()) })),
    samples: Type.Array(
      Type.Object({
        timestamp: Type.String({ description: 'when the agent polled (RFC 3339)' }),
        ...usage,
        ...(perContainer ? { containers: Type.Array(Container) } : {}),
      }),
    ),
  });

const PodParams = Type.Object({ namespace: NamespaceParam, name: ObjectNameParam });
const NodeParams = Type.Object({ name: ObjectNameParam });
type PodRequest = FastifyRequest<{ Params: { namespace: string; name: string } }>;
type NodeRequest = FastifyRequest<{ Params: { name: string } }>;

/** History was collected by the agent: a tunneled caller must be allowed to read those metrics itself. */
const historyAccess = (resource: 'pods' | 'nodes') => ({
  callerAware: true,
  callerAccess: (request: FastifyRequest): AccessAttributes => ({
    verb: 'get',
    group: 'metrics.k8s.io',
    resource,
    namespace: resource === 'pods' ? (request.params as { namespace: string }).namespace : undefined,
  }),
});

export function metricsRoutes(app: App, ctx: MetricsContext): void {
  app.get(
    '/api/metrics/pods/:namespace/:name',
    {
      config: callerAware,
      schema: {
        tags,
        summary: "A pod's CPU and memory now, per container, from metrics.k8s.io (read as the caller)",
        params: PodParams,
        querystring: Query({}),
        response: {
          200: liveAnswer({ namespace: Type.String(), ...sampleFields, containers: Type.Array(Container) }),
          ...errorResponses,
        },
      },
    },
    (request: PodRequest) => podMetrics(ctx, request.params.namespace, request.params.name, request.caller),
  );

  app.get(
    '/api/metrics/pods/:namespace/:name/history',
    {
      config: historyAccess('pods'),
      schema: {
        tags,
        summary: "The pod's CPU and memory over the last polls the agent made, per container",
        params: PodParams,
        querystring: Query({}),
        response: {
          200: HistoryAnswer({ namespace: Type.String(), name: Type.String() }, true),
          ...errorResponses,
        },
      },
    },
    async (request: PodRequest) => ({
      namespace: request.params.namespace,
      name: request.params.name,
      ...(await history(ctx, 'pod', request.params.namespace, request.params.name)),
    }),
  );

  app.get(
    '/api/metrics/nodes/:name',
    {
      config: callerAware,
      schema: {
        tags,
        summary: "A node's CPU and memory now, from metrics.k8s.io (read as the caller)",
        params: NodeParams,
        querystring: Query({}),
        response: { 200: liveAnswer(sampleFields), ...errorResponses },
      },
    },
    (request: NodeRequest) => nodeMetrics(ctx, request.params.name, request.caller),
  );

  app.get(
    '/api/metrics/nodes/:name/history',
    {
      config: historyAccess('nodes'),
      schema: {
        tags,
        summary: "The node's CPU and memory over the last polls the agent made",
        params: NodeParams,
        querystring: Query({}),
        response: { 200: HistoryAnswer({ name: Type.String() }, false), ...errorResponses },
      },
    },
    async (request: NodeRequest) => ({
      name: request.params.name,
      ...(await history(ctx, 'node', undefined, request.params.name)),
    }),
  );

  app.get(
    '/api/metrics/top/pods',
    {
      config: callerAware,
      schema: {
        tags,
        summary:
          'Every pod with metrics (as `kubectl top pods -A`), busiest first, beside its requests and limits',
        querystring: Query({
          namespace: Type.Optional(NamespaceParam),
          sort: Type.Optional(Sort),
          limit: Type.Optional(Limit),
        }),
        response: {
          200: liveAnswer({
            total: Type.Integer({ description: 'pods with metrics, before limit' }),
            pods: Type.Array(
              Type.Object({
                namespace: Type.String(),
                ...sampleFields,
                node: Type.Optional(Type.String()),
                cpuRequestMillicores: Type.Optional(Type.Number()),
                cpuLimitMillicores: Type.Optional(Type.Number()),
                memoryRequestBytes: Type.Optional(Type.Integer()),
                memoryLimitBytes: Type.Optional(Type.Integer()),
              }),
            ),
          }),
          ...errorResponses,
        },
      },
    },
    (request) =>
      topPods(ctx, request.caller, {
        namespace: request.query.namespace,
        sort: request.query.sort ?? 'cpu',
        limit: request.query.limit,
      }),
  );

  app.get(
    '/api/metrics/top/nodes',
    {
      config: callerAware,
      schema: {
        tags,
        summary: 'Every node with metrics (as `kubectl top nodes`), against its allocatable CPU and memory',
        querystring: Query({ sort: Type.Optional(Sort), limit: Type.Optional(Limit) }),
        response: {
          200: liveAnswer({
            total: Type.Integer(),
            nodes: Type.Array(
              Type.Object({
                ...sampleFields,
                pods: Type.Integer({ description: 'pods scheduled on the node that have not finished' }),
                cpuAllocatableMillicores: Type.Optional(Type.Number()),
                memoryAllocatableBytes: Type.Optional(Type.Integer()),
                cpuPercent: Type.Optional(Type.Number()),
                memoryPercent: Type.Optional(Type.Number()),
              }),
            ),
          }),
          ...errorResponses,
        },
      },
    },
    (request) =>
      topNodes(ctx, request.caller, { sort: request.query.sort ?? 'cpu', limit: request.query.limit }),
  );
}
