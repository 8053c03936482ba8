import { AppError, forbidden, notFound, type TypedApp } from '@binnacle/common/server';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../security/principal.ts';
import { atLeast } from '../security/roles.ts';
import { inOrg } from '../services/access/org-role.ts';
import { sessionCookie } from '../services/sessions/cookie.ts';
import { type AuthenticationDeps, authenticate } from './authenticate.ts';
import { cookieBased } from './principal.ts';
import { withChallenge } from './protected-resource.ts';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The one place where hub routes are gated (docs/api/roles.md): every route declares `config.access`; this
 * hook authenticates, applies CSRF protection to cookie-authenticated writes (bearer requests carry no
 * ambient credential, so they need none), scopes `{org_id}` to the
 * caller's memberships (another organization's id is 404, never 403, so ids leak nothing) and checks the
 * role. A route without a declaration is refused: access fails closed. Every 401 carries a Bearer challenge
 * pointing MCP clients at the resource's OAuth metadata (RFC 9728).
 */
export function registerAccessControl(app: TypedApp, ctx: AuthenticationDeps): void {
  const hubOrigin = new URL(ctx.config.publicUrl).origin;
  app.addHook('onRequest', async (request, reply) => {
    if (!request.routeOptions.url) return; // no route matched: the 404 handler answers
    const access = request.routeOptions.config.access;
    if (!access) throw forbidden('this route declares no access rule');
    const unsafe = !safeMethods.has(request.method);
    if (access.minRole === 'public') {
      // Sign-in from a foreign page is refused too (login CSRF); callers without a browser send no Origin.
      if (unsafe && request.headers.origin !== undefined && request.headers.origin !== hubOrigin) {
        throw new AppError(
          'origin_rejected',
          `requests from ${request.headers.origin} are not accepted; the hub is at ${hubOrigin}`,
        );
      }
      return;
    }
    const cookie = sessionCookie(ctx.config.publicUrl);
    let principal = await authenticate(ctx, request, () => {
      reply.clearCookie(cookie.name, cookie.clear());
    }).catch((error: unknown) => {
      if (!(error instanceof AppError) || error.status !== 401) throw error;
      throw withChallenge(
        error,
        ctx.config.publicUrl,
        request.url,
        request.headers.authorization !== undefined,
      );
    });
    if (access.session && !cookieBased(principal)) {
      throw forbidden(
        `${request.method} ${request.routeOptions.url} needs a browser session; a personal access token cannot do this`,
      );
    }
    if (cookieBased(principal) && unsafe) requireSameOrigin(request, hubOrigin);
    principal = await scopeToOrg(ctx, principal, (request.params as { org_id?: string }).org_id);
    if (!atLeast(principal.role, access.minRole)) {
      throw forbidden(
        `this needs the ${access.minRole} role; you are ${principal.role} in this organization`,
      );
    }
    request.principal = principal;
  });
}

/**
 * Cookie-authenticated writes must come from the hub's own pages: `Origin` equal to the hub, or, where a
 * browser sends no Origin, `Sec-Fetch-Site: same-origin`. SameSite=Lax on the cookie is defence in depth only.
 */
function requireSameOrigin(request: FastifyRequest, hubOrigin: string): void {
  const origin = request.headers.origin;
  if (origin === hubOrigin) return;
  if (origin === undefined && request.headers['sec-fetch-site'] === 'same-origin') return;
  throw new AppError(
    'origin_rejected',
    'a cookie-authenticated write must come from the hub page (Origin header missing or foreign); scripts use a PAT',
  );
}

async function scopeToOrg(
  ctx: AuthenticationDeps,
  principal: Principal,
  orgId: string | undefined,
): Promise<Principal> {
  if (orgId === undefined) return principal;
  const scoped = await inOrg(ctx, principal, orgId);
  if (!scoped) throw notFound(`organization ${orgId} not found`);
  return scoped;
}
