import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { AgentContext, App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { visibleNamespaces } from '../../http/caller-view.ts';
import { ReleaseDecoder } from './releases.ts';
import { pkgmgrDashboard } from './service.ts';

const Release = Type.Object({
  name: Type.String(),
  namespace: Type.String(),
  revision: Type.Integer(),
  status: Type.String(),
  chart: Type.String(),
  chartVersion: Type.String(),
  appVersion: Type.Optional(Type.String()),
  updated: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
});

export function pkgmgrRoutes(app: App, ctx: AgentContext): void {
  const decoder = new ReleaseDecoder();
  app.get(
    '/api/dashboard/pkgmgr',
    {
      config: callerAware,
      schema: {
        tags: ['dashboard', 'pkgmgr'],
        summary: 'Helm releases (newest revision each), decoded from their Secrets in the cache',
        querystring: Query({}),
        response: {
          200: Type.Object({
            releases: Type.Array(Release),
            total: Type.Integer(),
            byStatus: Type.Record(Type.String(), Type.Integer()),
            unreadable: Type.Array(
              Type.Object({ namespace: Type.String(), name: Type.String(), error: Type.String() }),
            ),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) =>
      pkgmgrDashboard(
        ctx,
        decoder,
        await visibleNamespaces(ctx, request.caller, { group: '', resource: 'secrets' }, undefined),
      ),
  );
}
