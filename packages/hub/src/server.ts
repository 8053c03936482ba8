import { createApp, registerModules, registerWebAssets } from '@binnacle/common/server';
import cookie from '@fastify/cookie';
import type { HubApp, HubContext } from './context.ts';
import { registerAccessControl } from './http/access-hook.ts';
import { hubPage } from './http/hub-page.ts';
import { access } from './http/principal.ts';
import { hubModules } from './modules.ts';

/**
 * The hub's HTTP app: the shared conventions (errors, no-store, OpenAPI), cookies, the access hook that gates
 * every route by docs/api/roles.md, the web UI, then the features `modules.ts` lists.
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
  await registerModules(app, ctx, hubModules);
  return app;
}
