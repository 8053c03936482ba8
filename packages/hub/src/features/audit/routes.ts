import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { HubApp, HubContext } from '../../context.ts';
import { OrgParams } from '../../http/org-schemas.ts';
import { access } from '../../http/principal.ts';
import { maxAuditPage } from '../../services/audit/audit-log.ts';

type Deps = Pick<HubContext, 'audit'>;

const AuditEntry = Type.Object({
  id: Type.Integer(),
  at: Type.String({ format: 'date-time' }),
  actor: Type.Union([
    Type.Object({
      userId: Type.Union([Type.String(), Type.Null()]),
      email: Type.Union([Type.String(), Type.Null()]),
      name: Type.Union([Type.String(), Type.Null()], { description: 'their display name then' }),
    }),
    Type.Null(),
  ]),
  via: Type.String({ description: 'session, pat or system' }),
  patId: Type.Union([Type.String(), Type.Null()], { description: 'set when the actor used a PAT' }),
  patName: Type.Union([Type.String(), Type.Null()], { description: "that PAT's name then" }),
  action: Type.String(),
  target: Type.Union([
    Type.Object({
      type: Type.String(),
      id: Type.Union([Type.String(), Type.Null()]),
      name: Type.Union([Type.String(), Type.Null()], {
        description:
          "its name when the entry was written (a cluster's, an organization's or a PAT's name, a person's or an invitation's e-mail); kept after it is deleted",
      }),
    }),
    Type.Null(),
  ]),
  detail: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  ip: Type.Union([Type.String(), Type.Null()]),
});

export function auditRoutes(app: HubApp, ctx: Deps): void {
  app.get(
    '/api/orgs/:org_id/audit',
    {
      config: access('owner'),
      schema: {
        summary: 'The organization audit log, newest first (owner)',
        tags: ['audit'],
        params: OrgParams,
        querystring: Query({
          limit: Type.Integer({ minimum: 1, maximum: maxAuditPage, default: 50 }),
          cursor: Type.Optional(
            // At most 15 digits: an entry id, exact as a JavaScript number and as a PostgreSQL bigint.
            Type.String({ pattern: '^[0-9]{1,15}$', description: 'nextCursor of the previous page' }),
          ),
          action: Type.Optional(Type.String({ maxLength: 100 })),
        }),
        response: {
          200: Type.Object({
            items: Type.Array(AuditEntry),
            nextCursor: Type.Union([Type.String(), Type.Null()]),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) =>
      ctx.audit.page(request.params.org_id, {
        limit: request.query.limit,
        before: request.query.cursor === undefined ? undefined : Number(request.query.cursor),
        action: request.query.action,
      }),
  );
}
