import {
  Duration,
  errorResponses,
  Query,
  Step,
  StringRecord,
  UnixTimeOrDuration,
} from '@binnacle/common/server';
import { Type } from 'typebox';
import { authHeaders } from '../../config/header-list.ts';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { NamespaceParam, ObjectNameParam } from '../../http/schemas.ts';
import { storeStatus } from '../../scope/metricsdb/answers.ts';
import { Store, Unavailable } from '../../scope/metricsdb/schemas.ts';
import { MetricsStores } from '../../scope/metricsdb/stores.ts';
import type { MetricsdbContext } from './module.ts';
import type { Category } from './queries.ts';
import { rightsizeWorkload, rightsizingScan } from './rightsizing-service.ts';
import { answer, ChartQuery, chartFields, Policy, Window, WorkloadRecommendation } from './schemas.ts';
import { clusterMetrics, namespaceMetrics, passThrough, resourceMetrics } from './service.ts';

const tags = ['metricsdb'];
const chartQuery = (query: { category?: Category; range?: string }) => ({
  category: query.category ?? 'cpu',
  range: query.range,
});
const KindParam = Type.String({ minLength: 1, maxLength: 63, pattern: '^[A-Za-z][A-Za-z0-9.]*$' });

/** The store the agent reads, shared by every area that reads metrics (metricsdb, traffic). */
export function metricsStores(app: App, ctx: MetricsdbContext): MetricsStores {
  const stores = new MetricsStores(ctx);
  app.addHook('preClose', (done) => {
    stores.close();
    done();
  });
  return stores;
}

export function metricsdbRoutes(app: App, ctx: MetricsdbContext, stores: MetricsStores): void {
  app.get(
    '/api/metricsdb/status',
    {
      config: callerAware,
      schema: {
        tags,
        summary: 'Which metrics store the agent reads, or why none (no store is an answer, not an error)',
        querystring: Query({}),
        response: {
          200: Type.Union([Type.Object({ available: Type.Literal(true), store: Store }), Unavailable]),
          ...errorResponses,
        },
      },
    },
    () => storeStatus(stores),
  );

  app.post(
    '/api/metricsdb/connect',
    {
      schema: {
        querystring: Query({}),
        tags,
        summary:
          'Use this Prometheus-compatible store from now on, if it answers; 502 with what was tried when not',
        body: Type.Object(
          {
            url: Type.String({
              pattern: '^https?://[^\\s]+$',
              maxLength: 2048,
              description: 'base URL; the API is under /api/v1',
            }),
            headers: Type.Optional(
              StringRecord({ minLength: 1, maxLength: 256 }, Type.String({ maxLength: 8192 }), {
                maxProperties: 20,
              }),
            ),
            bearerToken: Type.Optional(Type.String({ minLength: 1, maxLength: 8192 })),
            basicAuth: Type.Optional(
              Type.Object(
                { username: Type.String({ maxLength: 256 }), password: Type.String({ maxLength: 1024 }) },
                { additionalProperties: false },
              ),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ available: Type.Literal(true), store: Store }), ...errorResponses },
      },
    },
    async (request) => {
      const { url, ...auth } = request.body;
      await stores.connect({ url: url.replace(/\/+$/, ''), headers: authHeaders(auth) });
      return storeStatus(stores);
    },
  );

  app.get(
    '/api/metricsdb/cluster',
    {
      config: callerAware,
      schema: {
        tags,
        summary:
          "The cluster's CPU, memory or network over a window, against requests, limits and allocatable",
        querystring: Query(ChartQuery),
        response: { 200: answer(chartFields), ...errorResponses },
      },
    },
    (request) => clusterMetrics(ctx, stores, request.caller, chartQuery(request.query)),
  );

  app.get(
    '/api/metricsdb/namespace/:namespace',
    {
      config: callerAware,
      schema: {
        tags,
        summary: "A namespace's CPU, memory or network over a window, against its requests and limits",
        params: Type.Object({ namespace: NamespaceParam }),
        querystring: Query(ChartQuery),
        response: { 200: answer({ namespace: Type.String(), ...chartFields }), ...errorResponses },
      },
    },
    (request) =>
      namespaceMetrics(ctx, stores, request.caller, request.params.namespace, chartQuery(request.query)),
  );

  const resourceAnswer = answer({
    kind: Type.String(),
    namespace: Type.Optional(Type.String()),
    name: Type.String(),
    ...chartFields,
  });

  const resourceRoutes = [
    {
      path: '/api/metricsdb/resources/:kind/:namespace/:name',
      summary:
        "A pod's or workload's series per pod (its pods rolled up through their owners), with requests and limits",
      params: Type.Object({ kind: KindParam, namespace: NamespaceParam, name: ObjectNameParam }),
    },
    {
      path: '/api/metricsdb/resources/:kind/:name',
      summary: "A node's series (its root cgroup) against its capacity and allocatable",
      params: Type.Object({ kind: KindParam, name: ObjectNameParam }),
    },
  ];
  for (const route of resourceRoutes) {
    app.get(
      route.path,
      {
        config: callerAware,
        schema: {
          tags,
          summary: route.summary,
          params: route.params,
          querystring: Query(ChartQuery),
          response: { 200: resourceAnswer, ...errorResponses },
        },
      },
      (request) =>
        resourceMetrics(
          ctx,
          stores,
          request.caller,
          request.params as { kind: string; namespace?: string; name: string },
          chartQuery(request.query),
        ),
    );
  }

  app.get(
    '/api/metricsdb/query',
    {
      config: callerAware,
      schema: {
        tags,
        summary:
          'A PromQL query passed through: instant (time) or range (start, end, step), at most 11000 points per series',
        querystring: Query({
          // A URL over 16 KiB is refused by the HTTP parser (431) before any route runs; percent-encoding takes up
          // to three bytes a character, so this bound keeps every query the document allows within it.
          query: Type.String({ minLength: 1, maxLength: 4_096 }),
          time: Type.Optional(
            UnixTimeOrDuration({ description: 'Unix seconds, RFC 3339, or a duration back from now' }),
          ),
          start: Type.Optional(UnixTimeOrDuration({ description: 'as time' })),
          end: Type.Optional(UnixTimeOrDuration({ description: 'as time (default now)' })),
          step: Type.Optional(Step({ description: 'seconds or hours form (default 60s)' })),
          timeout: Type.Optional(Duration({ description: 'hours form, capped at --metricsdb-timeout' })),
        }),
        response: {
          200: answer({
            type: Type.Enum(['instant', 'range']),
            resultType: Type.Enum(['vector', 'matrix', 'scalar', 'string']),
            result: Type.Unknown({ description: "the store's result, as the Prometheus API returns it" }),
          }),
          ...errorResponses,
        },
      },
    },
    (request) => passThrough(ctx, stores, request.caller, request.query),
  );

  app.get(
    '/api/metricsdb/rightsizing/:kind/:namespace/:name',
    {
      config: callerAware,
      schema: {
        tags,
        summary:
          "Recommended requests and limits per container from the workload's usage over a window, with the saving",
        params: Type.Object({ kind: KindParam, namespace: NamespaceParam, name: ObjectNameParam }),
        querystring: Query({ window: Window }),
        response: {
          200: answer({ window: Type.String(), policy: Policy, ...WorkloadRecommendation.properties }),
          ...errorResponses,
        },
      },
    },
    (request) => rightsizeWorkload(ctx, stores, request.caller, request.params, request.query.window),
  );

  app.post(
    '/api/metricsdb/rightsizing/scan',
    {
      config: callerAware,
      schema: {
        querystring: Query({}),
        tags,
        summary:
          'Recommendations for every workload in the namespaces the caller may list pods in, largest CPU saving first',
        body: Type.Object(
          {
            namespace: Type.Optional(NamespaceParam),
            window: Window,
            limit: Type.Optional(
              Type.Integer({ minimum: 1, maximum: 500, description: 'workloads to return (default 50)' }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Union([
            Type.Object({
              available: Type.Literal(true),
              store: Type.Optional(Store),
              window: Type.String(),
              policy: Policy,
              total: Type.Optional(Type.Integer()),
              workloads: Type.Array(WorkloadRecommendation),
            }),
            Unavailable,
          ]),
          ...errorResponses,
        },
      },
    },
    (request) => rightsizingScan(ctx, stores, request.caller, request.body ?? {}),
  );
}
