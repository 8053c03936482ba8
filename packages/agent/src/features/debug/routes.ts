import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { App } from '../../context.ts';
import { diagnoseObject } from './diagnose.ts';
import type { DebugContext } from './module.ts';
import { pprofRoutes } from './pprof-routes.ts';

const tags = ['debug'];
const Open = Type.Object({}, { additionalProperties: true });
const Count = Type.Integer({ minimum: 0 });
const Pipeline = Type.Object({
  recorder: Type.Object({
    received: Count,
    recorded: Count,
    dropped: Type.Record(Type.String(), Count, { description: 'drops by reason' }),
    recentDrops: Type.Array(Open, { description: 'the last 200 drops' }),
    queued: Count,
    storeErrors: Type.Integer({
      minimum: 0,
      description: 'writes the store refused (each retried: /api/health names the failure while it lasts)',
    }),
  }),
  store: Type.Object({
    kind: Type.Union([Type.Literal('memory'), Type.Literal('sqlite')]),
    epoch: Type.String(),
    count: Count,
    oldestSeq: Count,
    latestSeq: Count,
    pruneFailures: Type.Integer({
      minimum: 0,
      description: 'scheduled prunes (retention, size cap) that failed since the start; each is logged',
    }),
  }),
  sessions: Type.Record(Type.String(), Count, { description: 'open sessions by kind' }),
});

/** Debug routes; the agent leaves them out in cloud mode, so they never pass through the hub. */
export function debugRoutes(app: App, ctx: DebugContext): void {
  app.get(
    '/api/debug/events',
    {
      schema: {
        tags,
        summary:
          'The change pipeline: received, recorded, dropped by reason, recent drops, store (with failed prunes) and streams',
        querystring: Query({}),
        response: { 200: Pipeline, ...errorResponses },
      },
    },
    async () => ({
      recorder: ctx.timeline.stats(),
      store: { kind: ctx.timeline.store.kind, ...(await ctx.timeline.store.stats()) },
      sessions: ctx.sessions.counts(),
    }),
  );

  app.get(
    '/api/debug/informers',
    {
      schema: {
        tags,
        summary: 'Every informer: tier, state, object count, list time, last error',
        querystring: Query({}),
        response: { 200: Open, ...errorResponses },
      },
    },
    () => ({
      tiers: ctx.cluster.cache.tiers(),
      kinds: ctx.cluster.cache.kinds(),
      objects: ctx.cluster.cache.objectCount(),
      cacheVersion: ctx.cluster.cache.version,
    }),
  );

  app.get(
    '/api/debug/events/diagnose',
    {
      schema: {
        tags,
        summary: 'Why a change of one object did (not) show up on the timeline',
        querystring: Query({
          kind: Type.String({ minLength: 1, maxLength: 253 }),
          namespace: Type.Optional(Type.String({ minLength: 1, maxLength: 63 })),
          name: Type.String({ minLength: 1, maxLength: 253 }),
        }),
        response: { 200: Open, ...errorResponses },
      },
    },
    (request) => diagnoseObject(ctx, request.query.kind, request.query.namespace, request.query.name),
  );

  pprofRoutes(app);
}
