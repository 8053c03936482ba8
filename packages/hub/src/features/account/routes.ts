import { errorResponses, notFound, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { HubApp, HubContext } from '../../context.ts';
import { membershipsOf, roleIn } from '../../db/directory.ts';
import { clusterIdentity } from '../../http/cluster-identity.ts';
import { access, type Principal, principalOf } from '../../http/principal.ts';
import { RoleSchema } from '../orgs/schemas.ts';

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

async function account(ctx: HubContext, principal: Principal) {
  const memberships = await membershipsOf(ctx.database.db, principal.user.id);
  const orgs = memberships
    .filter((m) => principal.via !== 'pat' || m.id === principal.orgId)
    .map((m) => ({ id: m.id, name: m.name, role: m.role }));
  const current = orgs.find((o) => o.id === principal.orgId);
  if (!current) throw notFound('the current organization no longer exists');
  const credential = principal.session
    ? {
        via: principal.via,
        method: principal.session.method,
        expiresAt: principal.session.expiresAt.toISOString(),
      }
    : { via: principal.via, ...(principal.patId ? { patId: principal.patId } : {}) };
  const idpGroups = principal.via === 'pat' ? [] : principal.groups;
  return {
    user: principal.user,
    currentOrg: current,
    orgs,
    credential,
    idpGroups,
    clusterIdentity: clusterIdentity(principal),
  };
}

export function accountRoutes(app: HubApp, ctx: HubContext): void {
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
    async (request) => account(ctx, principalOf(request)),
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
    async (request) => {
      const principal = principalOf(request);
      const orgId = request.body.currentOrgId;
      const role = await roleIn(ctx.database.db, orgId, principal.user.id);
      if (!role || !principal.session) throw notFound(`organization ${orgId} not found`);
      await ctx.sessions.switchOrg(principal.session.idHash, orgId);
      return account(ctx, { ...principal, orgId, role });
    },
  );
}
