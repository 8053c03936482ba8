import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { HubApp, HubContext } from '../../context.ts';
import { RoleSchema } from '../../http/org-schemas.ts';
import { access, principalOf } from '../../http/principal.ts';
import { describeAccount, switchOrg } from './service.ts';

type Deps = Pick<HubContext, 'database' | 'sessions'>;

const Account = Type.Object({
  user: Type.Object({ id: Type.String(), email: Type.String(), name: Type.String() }),
  currentOrg: Type.Object({ id: Type.String(), name: Type.String(), role: RoleSchema }),
  orgs: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), role: RoleSchema })),
  credential: Type.Object({
    via: Type.Union([
      Type.Literal('session'),
      Type.Literal('hosted'),
      Type.Literal('pat'),
      Type.Literal('oauth'),
    ]),
    method: Type.Optional(Type.String({ description: 'how the session signed in: break-glass or oidc' })),
    expiresAt: Type.Optional(Type.String({ format: 'date-time' })),
    patId: Type.Optional(Type.String()),
  }),
  idpGroups: Type.Array(Type.String(), {
    description: 'the forwardable IdP groups of this session (none for PATs)',
  }),
  clusterIdentity: Type.Object(
    { user: Type.String(), groups: Type.Array(Type.String()) },
    { description: 'the user and groups connected clusters see for you (impersonated by the agent)' },
  ),
});

export function accountRoutes(app: HubApp, ctx: Deps): void {
  app.get(
    '/api/account',
    {
      config: access('viewer'),
      schema: {
        summary: 'Who you are, where you act, and with which credential',
        tags: ['account'],
        querystring: Query({}),
        response: { 200: Account, ...errorResponses },
      },
    },
    async (request) => describeAccount(ctx, principalOf(request)),
  );
  app.patch(
    '/api/account',
    {
      config: access('viewer', { session: true }),
      schema: {
        querystring: Query({}),
        summary: 'Switch the organization your session acts in',
        tags: ['account'],
        body: Type.Object(
          { currentOrgId: Type.String({ minLength: 1, maxLength: 64 }) },
          { additionalProperties: false },
        ),
        response: { 200: Account, ...errorResponses },
      },
    },
    async (request) => switchOrg(ctx, principalOf(request), request.body.currentOrgId),
  );
}
