import { createApp, registerWebAssets } from '@binnacle/common/server';
import cookie from '@fastify/cookie';
import type { HubApp, HubContext } from './context.ts';
import { accountRoutes } from './features/account/routes.ts';
import { auditRoutes } from './features/audit/routes.ts';
import { oidcRoutes } from './features/auth/oidc-routes.ts';
import { authRoutes } from './features/auth/routes.ts';
import { billingRoutes } from './features/billing/routes.ts';
import { clusterRoutes } from './features/clusters/routes.ts';
import { fleetRoutes } from './features/fleet/routes.ts';
import { healthRoutes } from './features/health/routes.ts';
import { invitationRoutes } from './features/invitations/routes.ts';
import { mcpRoutes } from './features/mcp/routes.ts';
import { memberRoutes } from './features/members/routes.ts';
import { metricsRoutes } from './features/metrics/routes.ts';
import { orgRoutes } from './features/orgs/routes.ts';
import { patRoutes } from './features/pats/routes.ts';
import { preferenceRoutes } from './features/preferences/routes.ts';
import { ssoRoutes } from './features/sso/routes.ts';
import { tunnelRoutes } from './features/tunnel/routes.ts';
import { registerAccessControl } from './http/access-hook.ts';
import { hubPage } from './http/hub-page.ts';
import { access } from './http/principal.ts';

/**
 * The hub's HTTP app: the shared conventions (errors, no-store, OpenAPI), cookies, the access hook that gates
 * every route by docs/api/roles.md, the web UI, then one register call per feature.
 */
export async function buildHubServer(
  ctx: HubContext,
  options: { logRequests?: boolean } = {},
): Promise<HubApp> {
  const app = (await createApp({
    logger: ctx.log,
    logRequests: options.logRequests,
    builtInRouteConfig: access('public'),
    // request.ip, for rate limits and the audit log: the client as the trusted proxies report it (ADR 0048).
    trustProxy: ctx.proxyTrust,
    // The hub's own pages (sign-in, organisation, clusters) at its root; each cluster's pages come from its agent.
    page: hubPage,
    openapi: {
      title: 'Binnacle hub API',
      version: ctx.version,
      description:
        'The hub fronts many agents. Errors are { error, code } (docs/api/errors.md); every response carries Cache-Control: no-store; roles per route are in docs/api/roles.md.',
    },
  })) as unknown as HubApp;
  await app.register(cookie);
  // The IdP's back-channel logout posts a form.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
  registerAccessControl(app, ctx);
  await registerWebAssets(app, access('public'));
  metricsRoutes(app, ctx);
  healthRoutes(app, ctx);
  authRoutes(app, ctx);
  oidcRoutes(app, ctx);
  orgRoutes(app, ctx);
  memberRoutes(app, ctx);
  invitationRoutes(app, ctx);
  auditRoutes(app, ctx);
  patRoutes(app, ctx);
  clusterRoutes(app, ctx);
  billingRoutes(app, ctx);
  fleetRoutes(app, ctx);
  accountRoutes(app, ctx);
  preferenceRoutes(app, ctx);
  ssoRoutes(app, ctx);
  mcpRoutes(app, ctx);
  tunnelRoutes(app, ctx);
  return app;
}
