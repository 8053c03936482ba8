import { errorResponses, Nullable, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { HubApp, HubContext } from '../../context.ts';
import { OrgParams } from '../../http/org-schemas.ts';
import { access, principalOf } from '../../http/principal.ts';
import { ssoSettings, ssoSetup } from './service.ts';

type Deps = Pick<HubContext, 'audit' | 'breakGlass' | 'config' | 'database' | 'log' | 'outbound'>;

const ClusterAccess = Type.Union([Type.Literal('idp'), Type.Literal('roles')]);

export function ssoRoutes(app: HubApp, ctx: Deps): void {
  app.get(
    '/api/orgs/:org_id/sso',
    {
      config: access('viewer'),
      schema: {
        summary: 'The SSO settings in force, read-only (the chart values are the source of truth)',
        tags: ['sso'],
        params: OrgParams,
        querystring: Query({}),
        response: {
          200: Type.Object({
            mayGenerate: Type.Boolean({
              description:
                "whether the caller may generate settings (POST …/sso/setup): owners of the hub's first organization",
            }),
            oidcEnabled: Type.Boolean(),
            issuer: Nullable(Type.String()),
            clientId: Nullable(Type.String()),
            redirectUri: Type.String({ description: 'register this at the IdP' }),
            groupsClaim: Type.String(),
            groupForwarding: Type.Boolean(),
            clusterAccess: ClusterAccess,
            scopes: Type.Array(Type.String()),
            useRefreshToken: Type.Boolean(),
            hostedIdp: Type.Boolean(),
            breakGlass: Type.Boolean(),
          }),
          ...errorResponses,
        },
      },
    },
    (request) => ssoSettings(ctx, principalOf(request)),
  );
  app.post(
    '/api/orgs/:org_id/sso/setup',
    {
      config: access('owner'),
      schema: {
        querystring: Query({}),
        summary:
          "Generate the chart values and commands that configure OIDC (owners of the hub's first organization); nothing is stored",
        tags: ['sso'],
        params: OrgParams,
        body: Type.Object(
          {
            issuer: Type.String({ pattern: '^https?://\\S+$', maxLength: 2048 }),
            clientId: Type.String({ minLength: 1, maxLength: 256 }),
            clientSecret: Type.String({ minLength: 1, maxLength: 1024 }),
            groupsClaim: Type.Optional(
              Type.String({ maxLength: 256, description: '"" turns group forwarding off' }),
            ),
            scopes: Type.Optional(Type.Array(Type.String({ pattern: '^[!#-\\[\\]-~]+$' }), { maxItems: 20 })),
            clusterAccess: Type.Optional(ClusterAccess),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            redirectUri: Type.String(),
            signOutRedirectUri: Type.String(),
            grantTypes: Type.Array(Type.String()),
            values: Type.Record(Type.String(), Type.Unknown()),
            valuesYaml: Type.String(),
            commands: Type.Array(Type.String()),
            discovery: Type.Object({
              ok: Type.Boolean(),
              code: Type.Optional(
                Type.Union([Type.Literal('discovery_failed'), Type.Literal('issuer_mismatch')], {
                  description:
                    'discovery_failed: nothing readable at the issuer, for any reason (never which: ADR 0049); issuer_mismatch: the document names another issuer',
                }),
              ),
              error: Type.Optional(Type.String()),
              endSessionEndpoint: Type.Optional(Type.Boolean()),
            }),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => ssoSetup(ctx, principalOf(request), request.body, request.ip),
  );
}
