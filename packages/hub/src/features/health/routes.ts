import { errorResponses, Query } from '@binnacle/common/server';
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { HubApp, HubContext } from '../../context.ts';
import { access } from '../../http/principal.ts';
import { inviteesCanSignIn } from '../../services/identity/sign-in.ts';

type Deps = Pick<HubContext, 'breakGlass' | 'database' | 'hosted' | 'oidc' | 'version'>;

export function healthRoutes(app: HubApp, ctx: Deps): void {
  app.get(
    '/api/health',
    {
      config: access('public'),
      schema: {
        summary: 'Liveness and database reachability',
        tags: ['health'],
        querystring: Query({}),
        response: {
          200: Type.Object({
            status: Type.Literal('ok'),
            version: Type.String(),
            database: Type.String({ description: 'sqlite or postgres' }),
            breakGlass: Type.Boolean(),
            oidc: Type.Boolean({
              description: 'whether sign-in through the identity provider is configured',
            }),
            invitations: Type.Boolean({
              description:
                'whether invitations can be made and accepted: someone other than the break-glass admin can sign in (OIDC or the hosted identity provider)',
            }),
          }),
          ...errorResponses,
        },
      },
    },
    async () => {
      await sql`select 1`.execute(ctx.database.db);
      return {
        status: 'ok' as const,
        version: ctx.version,
        database: ctx.database.dialect,
        breakGlass: ctx.breakGlass.admin.enabled,
        oidc: Boolean(ctx.oidc),
        invitations: inviteesCanSignIn(ctx),
      };
    },
  );
}
