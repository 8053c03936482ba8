import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { HubApp, HubContext } from '../../context.ts';
import { OrgParams, RoleSchema } from '../../http/org-schemas.ts';
import { access, principalOf } from '../../http/principal.ts';
import { changeRole, listMembers, removeMember } from './service.ts';

type Deps = Pick<HubContext, 'audit' | 'database' | 'sessions'>;

const Member = Type.Object({
  userId: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role: RoleSchema,
  breakGlass: Type.Boolean({ description: 'the configured break-glass admin (always owner)' }),
  joinedAt: Type.String({ format: 'date-time' }),
  lastSignInAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
const MemberParams = Type.Object({
  org_id: OrgParams.properties.org_id,
  user_id: Type.String({ minLength: 1, maxLength: 64 }),
});

export function memberRoutes(app: HubApp, ctx: Deps): void {
  app.get(
    '/api/orgs/:org_id/members',
    {
      config: access('viewer'),
      schema: {
        summary: 'Members of an organization with their roles, by e-mail',
        tags: ['members'],
        params: OrgParams,
        querystring: Query({
          limit: Type.Integer({ minimum: 1, maximum: 500, default: 100 }),
          // Bounded so a huge offset is a 400, not a database type error.
          offset: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
        }),
        response: {
          200: Type.Object({ items: Type.Array(Member), total: Type.Integer() }),
          ...errorResponses,
        },
      },
    },
    async (request) => listMembers(ctx, request.params.org_id, request.query),
  );
  app.patch(
    '/api/orgs/:org_id/members/:user_id',
    {
      config: access('owner'),
      schema: {
        querystring: Query({}),
        summary: "Change a member's role (owner); the last owner cannot be demoted",
        tags: ['members'],
        params: MemberParams,
        body: Type.Object({ role: RoleSchema }, { additionalProperties: false }),
        response: { 204: Type.Null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await changeRole(ctx, principalOf(request), request.params.user_id, request.body.role, request.ip);
      return reply.code(204).send(null);
    },
  );
  app.delete(
    '/api/orgs/:org_id/members/:user_id',
    {
      config: access('owner'),
      schema: {
        summary: 'Remove a member (owner): their sessions end and their PATs stop working at once',
        tags: ['members'],
        params: MemberParams,
        querystring: Query({}),
        response: { 204: Type.Null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await removeMember(ctx, principalOf(request), request.params.user_id, request.ip);
      return reply.code(204).send(null);
    },
  );
}
