import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { NamespaceParam } from '../../http/schemas.ts';
import type { MetricsStores } from '../../scope/metricsdb/stores.ts';
import type { CostContext } from './module.ts';
import {
  ApplicationBody,
  costAnswer,
  figures,
  NodeCost,
  namespaceTrendFields,
  trendFields,
  WindowQuery,
  WorkloadCost,
  WorkloadParams,
} from './schemas.ts';
import { costApplication, costNodes, costSummary, costWorkload, costWorkloads } from './service.ts';
import { costApplicationTrend, costTrend, costWorkloadTrend } from './trends.ts';

const tags = ['cost'];
const config = callerAware;
const windowOnly = Query({ window: WindowQuery });
const inNamespace = { window: WindowQuery, namespace: Type.Optional(NamespaceParam) };
const respond = (fields: Parameters<typeof costAnswer>[0]) => ({
  200: costAnswer(fields),
  ...errorResponses,
});
const workloadId = { kind: Type.String(), namespace: Type.String(), name: Type.String() };

/** Cost from OpenCost's exporter series, read from the store the metricsdb routes found (one store for both). */
export function costRoutes(app: App, ctx: CostContext, stores: MetricsStores): void {
  app.get(
    '/api/cost/summary',
    {
      config,
      schema: {
        tags,
        summary: 'Hourly cost per namespace the caller may list pods in, with storage, idle and efficiency',
        querystring: windowOnly,
        response: respond({
          ...figures,
          windowCost: Type.Number({ description: 'hourlyCost × the window’s hours' }),
          nodesHourlyCost: Type.Optional(
            Type.Number({ description: 'callers who see every namespace only' }),
          ),
          idleCost: Type.Optional(
            Type.Number({ description: 'node cost − allocated cost; callers who see every namespace only' }),
          ),
          namespaces: Type.Array(Type.Object({ name: Type.String(), pods: Type.Integer(), ...figures })),
        }),
      },
    },
    (request) => costSummary(ctx, stores, request.caller, request.query),
  );

  app.get(
    '/api/cost/workloads',
    {
      config,
      schema: {
        tags,
        summary: 'Hourly cost per workload (pods rolled up to their owners), most expensive first',
        querystring: Query({
          ...inNamespace,
          limit: Type.Optional(
            Type.Integer({ minimum: 1, maximum: 1000, description: 'workloads to return (default 100)' }),
          ),
        }),
        response: respond({
          total: Type.Integer({ description: 'workloads before the limit' }),
          workloads: Type.Array(Type.Object({ ...workloadId, pods: Type.Integer(), ...figures })),
        }),
      },
    },
    (request) => costWorkloads(ctx, stores, request.caller, request.query),
  );

  app.get(
    '/api/cost/trend',
    {
      config,
      schema: {
        tags,
        summary: 'Hourly allocation cost per namespace over the window (at most 121 points)',
        querystring: Query(inNamespace),
        response: respond(namespaceTrendFields),
      },
    },
    (request) => costTrend(ctx, stores, request.caller, request.query),
  );

  app.get(
    '/api/cost/nodes',
    {
      config,
      schema: {
        tags,
        summary: "Each node's hourly cost: OpenCost's prices × its capacity (needs list nodes)",
        querystring: windowOnly,
        response: respond({ hourlyCost: Type.Number(), nodes: Type.Array(NodeCost) }),
      },
    },
    (request) => costNodes(ctx, stores, request.caller, request.query),
  );

  app.get(
    '/api/cost/workload/:kind/:namespace/:name',
    {
      config,
      schema: {
        tags,
        summary: "A workload's hourly cost and its pods' (needs get on the workload)",
        params: WorkloadParams,
        querystring: windowOnly,
        response: respond(WorkloadCost.properties),
      },
    },
    (request) => costWorkload(ctx, stores, request.caller, request.params, request.query),
  );

  app.get(
    '/api/cost/workload/:kind/:namespace/:name/trend',
    {
      config,
      schema: {
        tags,
        summary: "A workload's hourly allocation cost over the window",
        params: WorkloadParams,
        querystring: windowOnly,
        response: respond({ ...workloadId, ...trendFields }),
      },
    },
    (request) => costWorkloadTrend(ctx, stores, request.caller, request.params, request.query),
  );

  app.post(
    '/api/cost/application',
    {
      config,
      schema: {
        tags,
        summary: 'A set of workloads priced together (a pod two of them match counts once)',
        body: ApplicationBody,
        response: respond({
          ...figures,
          windowCost: Type.Number({ description: 'hourlyCost × the window’s hours' }),
          workloads: Type.Array(WorkloadCost),
        }),
      },
    },
    (request) => costApplication(ctx, stores, request.caller, request.body),
  );

  app.post(
    '/api/cost/application/trend',
    {
      config,
      schema: {
        tags,
        summary: 'The hourly allocation cost of a set of workloads over the window',
        body: ApplicationBody,
        response: respond(trendFields),
      },
    },
    (request) => costApplicationTrend(ctx, stores, request.caller, request.body),
  );
}
