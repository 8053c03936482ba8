import {
  ComparedObjectParam,
  ComparisonAnswer,
  errorResponses,
  Query,
  TimeOrDuration,
} from '@binnacle/common/server';
import { Type } from 'typebox';
import type { HubApp, HubContext } from '../../context.ts';
import { access, principalOf } from '../../http/principal.ts';
import { compareAcrossClusters } from '../../services/clusters/compare.ts';

type Deps = Pick<HubContext, 'accessCache' | 'clock' | 'database' | 'log' | 'replicas' | 'tunnels'>;

const ClusterId = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'a cluster id of your organisation',
});
const Moment = TimeOrDuration({
  maxLength: 64,
  description: 'read this side as it was then (RFC 3339 or a duration back from now); the agent must keep it',
});

/** GET /api/compare: two objects of a kind in two clusters, field by field (docs/compare.md). */
export function compareRoutes(app: HubApp, ctx: Deps): void {
  app.get(
    '/api/compare',
    {
      config: access('viewer'),
      schema: {
        tags: ['fleet'],
        summary:
          'Two objects of a kind in two clusters (or one), field by field, with status, server-generated fields and defaults one side lacks folded',
        description:
          "Each side is read through its cluster's tunnel as the caller (that cluster's RBAC decides), within 10 s; a side that fails names itself (`left: …`) with the agent's code. Secret values are never returned.",
        querystring: Query({
          kind: Type.String({ minLength: 1, maxLength: 253, pattern: '^[A-Za-z0-9][A-Za-z0-9.-]*$' }),
          group: Type.Optional(Type.String({ maxLength: 253 })),
          leftCluster: ClusterId,
          left: ComparedObjectParam,
          rightCluster: ClusterId,
          right: ComparedObjectParam,
          leftAt: Type.Optional(Moment),
          rightAt: Type.Optional(Moment),
        }),
        response: { 200: ComparisonAnswer, ...errorResponses },
      },
    },
    (request) => {
      const q = request.query;
      return compareAcrossClusters(ctx, principalOf(request), {
        kind: q.kind,
        group: q.group,
        left: { clusterId: q.leftCluster, ref: q.left, at: q.leftAt },
        right: { clusterId: q.rightCluster, ref: q.right, at: q.rightAt },
      });
    },
  );
}
