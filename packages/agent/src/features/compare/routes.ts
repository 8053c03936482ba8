import { ComparedObjectParam, ComparisonAnswer, errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { AtParam, requestedMoment } from '../../http/query.ts';
import { GroupParam, KindParam } from '../../http/schemas.ts';
import type { CompareContext } from './module.ts';
import { compareInCluster } from './service.ts';

/** GET /api/compare: two objects of a kind, or one object at two moments, field by field (docs/compare.md). */
export function compareRoutes(app: App, ctx: CompareContext): void {
  app.get(
    '/api/compare',
    {
      config: callerAware,
      schema: {
        tags: ['resources'],
        summary:
          'Two objects of a kind field by field, with status, server-generated fields and defaults one side lacks folded',
        description:
          'Each side is read as the caller may (`get` on the kind in its namespace). `leftAt`/`rightAt` read a side as it was at a past moment (time travel): one object against itself then. Secret values are never returned, only whether they differ.',
        querystring: Query({
          kind: KindParam,
          group: Type.Optional(GroupParam),
          left: ComparedObjectParam,
          right: ComparedObjectParam,
          leftAt: Type.Optional(AtParam),
          rightAt: Type.Optional(AtParam),
        }),
        response: { 200: ComparisonAnswer, ...errorResponses },
      },
    },
    (request) => {
      const q = request.query;
      return compareInCluster(ctx, request.caller, {
        kind: q.kind,
        group: q.group,
        left: { ref: q.left, at: requestedMoment(q.leftAt, 'leftAt') },
        right: { ref: q.right, at: requestedMoment(q.rightAt, 'rightAt') },
      });
    },
  );
}
