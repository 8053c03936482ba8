import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { HubApp, HubContext } from '../../context.ts';
import { access } from '../../http/principal.ts';

type Deps = Pick<HubContext, 'metrics'>;

/** Request counts and durations for every route, and `/metrics` in Prometheus text format (no secrets, counts only). */
export function metricsRoutes(app: HubApp, ctx: Deps): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    ctx.metrics.requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    ctx.metrics.duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });
  app.get(
    '/metrics',
    {
      config: access('public'),
      schema: {
        summary: 'Prometheus metrics',
        tags: ['health'],
        produces: ['text/plain'],
        querystring: Query({}),
        response: { 200: Type.String({ description: 'Prometheus text format' }), ...errorResponses },
      },
    },
    async (_request, reply) => {
      reply.type(ctx.metrics.registry.contentType);
      return ctx.metrics.registry.metrics();
    },
  );
}
