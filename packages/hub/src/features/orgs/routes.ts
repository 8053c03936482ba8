import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { HubApp, HubContext } from '../../context.ts';
import { OrgParams } from '../../http/org-schemas.ts';
import { access, principalOf } from '../../http/principal.ts';
import { Org, OrgName } from './schemas.ts';
import { createOrganization, getOrg, listOrgs, renameOrg } from './service.ts';

type Deps = Pick<HubContext, 'audit' | 'clock' | 'database'>;

const OrgBody = Type.Object({ name: OrgName }, { additionalProperties: false });

export function orgRoutes(app: HubApp, ctx: Deps): void {
  app.get(
    '/api/orgs',
    {
      config: access('viewer'),
      schema: {
        summary: 'Organizations the caller belongs to (a PAT sees only its own)',
        tags: ['orgs'],
        querystring: Query({}),
        response: { 200: Type.Object({ items: Type.Array(Org) }), ...errorResponses },
      },
    },
    async (request) => ({ items: await listOrgs(ctx, principalOf(request)) }),
  );
  app.post(
    '/api/orgs',
    {
      config: access('viewer', { session: true }),
      schema: {
        querystring: Query({}),
        summary: 'Create an organization; the caller becomes its owner',
        tags: ['orgs'],
        body: OrgBody,
        response: { 201: Org, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return createOrganization(ctx, principalOf(request), request.body.name, request.ip);
    },
  );
  app.get(
    '/api/orgs/:org_id',
    {
      config: access('viewer'),
      schema: {
        summary: 'One organization',
        tags: ['orgs'],
        params: OrgParams,
        querystring: Query({}),
        response: { 200: Org, ...errorResponses },
      },
    },
    async (request) => getOrg(ctx, principalOf(request)),
  );
  app.patch(
    '/api/orgs/:org_id',
    {
      config: access('owner'),
      schema: {
        querystring: Query({}),
        summary: 'Rename an organization (owner)',
        tags: ['orgs'],
        params: OrgParams,
        body: OrgBody,
        response: { 200: Org, ...errorResponses },
      },
    },
    async (request) => renameOrg(ctx, principalOf(request), request.body.name, request.ip),
  );
}
