import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import type { UpgradeContext } from './module.ts';
import { ReadinessReport, Release } from './schemas.ts';
import { upgradeReadiness } from './service.ts';

/** Kubernetes upgrade readiness (docs/upgrade-readiness.md). */
export function upgradeRoutes(app: App, ctx: UpgradeContext): void {
  app.get(
    '/api/upgrade-readiness',
    {
      config: callerAware,
      schema: {
        tags: ['upgrade'],
        summary:
          "The uses of API versions a target Kubernetes release removes or deprecates — in live objects' last-applied manifests, Helm releases, GitOps sources and served versions — each with its replacement, and the API server's own count of deprecated requests",
        querystring: Query({
          target: Type.Optional({ ...Release, description: 'default: the minor after the cluster’s' }),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000, default: 1000 })),
        }),
        response: { 200: ReadinessReport, ...errorResponses },
      },
    },
    (request) => upgradeReadiness(ctx, request.caller, request.query),
  );
}
