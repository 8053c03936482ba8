import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { HubApp, HubContext } from '../../context.ts';
import { OrgParams, RoleSchema } from '../../http/org-schemas.ts';
import { access, principalOf } from '../../http/principal.ts';
import {
  acceptInvitation,
  defaultInvitationHours,
  invite,
  listInvitations,
  maxInvitationHours,
  revokeInvitation,
} from './service.ts';

type Deps = Pick<HubContext, 'audit' | 'billing' | 'clock' | 'database' | 'hosted' | 'oidc' | 'sessions'>;

const Invitation = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: RoleSchema,
  createdAt: Type.String({ format: 'date-time' }),
  expiresAt: Type.String({ format: 'date-time' }),
});

export function invitationRoutes(app: HubApp, ctx: Deps): void {
  app.get(
    '/api/orgs/:org_id/invitations',
    {
      config: access('owner'),
      schema: {
        summary: 'Pending invitations (owner)',
        tags: ['members'],
        params: OrgParams,
        querystring: Query({}),
        response: { 200: Type.Object({ items: Type.Array(Invitation) }), ...errorResponses },
      },
    },
    async (request) => ({ items: await listInvitations(ctx, principalOf(request).orgId) }),
  );
  app.post(
    '/api/orgs/:org_id/invitations',
    {
      config: access('owner'),
      schema: {
        querystring: Query({}),
        summary:
          'Invite an e-mail address with a role (owner); the invitation token is shown once, valid 168h unless expiresInHours says otherwise',
        tags: ['members'],
        params: OrgParams,
        body: Type.Object(
          {
            email: Type.String({ minLength: 3, maxLength: 320, pattern: '^[^\\s@]+@[^\\s@]+$' }),
            role: RoleSchema,
            expiresInHours: Type.Optional(
              Type.Integer({
                minimum: 1,
                maximum: maxInvitationHours,
                default: defaultInvitationHours,
                description: 'How long the invitation may wait to be accepted',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          201: Type.Intersect([
            Invitation,
            Type.Object({ token: Type.String({ description: 'bni_…; give it to the invitee' }) }),
          ]),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return invite(ctx, principalOf(request), request.body, request.ip);
    },
  );
  app.delete(
    '/api/orgs/:org_id/invitations/:id',
    {
      config: access('owner'),
      schema: {
        summary: 'Withdraw a pending invitation (owner)',
        tags: ['members'],
        params: Type.Object({
          org_id: OrgParams.properties.org_id,
          id: Type.String({ minLength: 1, maxLength: 64 }),
        }),
        querystring: Query({}),
        response: { 204: Type.Null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await revokeInvitation(ctx, principalOf(request), request.params.id, request.ip);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/api/invitations/accept',
    {
      config: access('viewer', { session: true }),
      schema: {
        querystring: Query({}),
        summary: 'Accept an invitation addressed to your e-mail; your session switches to that organization',
        tags: ['members'],
        body: Type.Object(
          { token: Type.String({ minLength: 1, maxLength: 200 }) },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ orgId: Type.String(), role: RoleSchema }), ...errorResponses },
      },
    },
    async (request) => acceptInvitation(ctx, principalOf(request), request.body.token, request.ip),
  );
}
