import { errorResponses, Query, toAppError } from '@binnacle/common/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { HubApp, HubContext } from '../../context.ts';
import { access } from '../../http/principal.ts';
import { sessionCookie } from '../../services/sessions/cookie.ts';
import { backchannelLogout } from './backchannel.ts';
import { finishOidcLogin, startOidcLogin } from './oidc-service.ts';

type Deps = Pick<
  HubContext,
  'audit' | 'clock' | 'config' | 'database' | 'log' | 'metrics' | 'oidc' | 'sessions' | 'warnOnce'
>;

const Redirect = Type.Null({ description: 'a redirect (Location header)' });

/**
 * Sign-in runs as top-level browser navigations: a failure there would leave the person on a page of JSON. A
 * browser (it accepts HTML) is sent to the sign-in page with the error's code, which the page puts in words;
 * anything else gets the `{error, code}` answer as usual.
 */
async function toSignInPageOnFailure<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  run: () => Promise<T>,
): Promise<T | FastifyReply> {
  try {
    return await run();
  } catch (failure) {
    if (!(request.headers.accept ?? '').includes('text/html')) throw failure;
    const error = toAppError(failure);
    request.log.info({ code: error.code }, 'sign-in failed; sending the browser to the sign-in page');
    return reply.redirect(`/sign-in?error=${encodeURIComponent(error.code)}`, 302);
  }
}

export function oidcRoutes(app: HubApp, ctx: Deps): void {
  const cookie = sessionCookie(ctx.config.publicUrl);
  const secure = ctx.config.publicUrl.startsWith('https:');
  app.get(
    '/api/auth/oidc/login',
    {
      config: access('public'),
      schema: {
        summary: 'Start OIDC sign-in (top-level browser navigation): redirects to the identity provider',
        tags: ['auth'],
        querystring: Query({
          returnTo: Type.Optional(
            Type.String({ maxLength: 2048, description: 'a path on the hub to land on afterwards' }),
          ),
        }),
        response: { 302: Redirect, ...errorResponses },
      },
    },
    (request, reply) =>
      toSignInPageOnFailure(request, reply, async () => {
        const login = await startOidcLogin(ctx, request.query.returnTo);
        reply.setCookie(login.cookie.name, login.cookie.value, {
          path: '/',
          httpOnly: true,
          sameSite: 'lax',
          secure,
          maxAge: login.cookie.maxAgeSeconds,
        });
        return reply.redirect(login.url, 302);
      }),
  );
  app.get(
    '/api/auth/oidc/callback',
    {
      config: access('public'),
      schema: {
        summary:
          "The identity provider's redirect after sign-in: opens a session and redirects to the return path",
        tags: ['auth'],
        querystring: Type.Object(
          {
            code: Type.Optional(Type.String()),
            state: Type.Optional(Type.String()),
            error: Type.Optional(Type.String()),
            error_description: Type.Optional(Type.String()),
          },
          {
            additionalProperties: true,
            description: 'as the IdP sends it (iss, session_state and others pass through)',
          },
        ),
        response: { 302: Redirect, ...errorResponses },
      },
    },
    (request, reply) =>
      toSignInPageOnFailure(request, reply, async () => {
        const rawQuery = request.url.slice(request.url.indexOf('?') + 1);
        const signedIn = await finishOidcLogin(ctx, {
          query: request.query,
          rawQuery,
          cookies: request.cookies,
          ip: request.ip,
        });
        reply.clearCookie(signedIn.loginCookie, { path: '/', httpOnly: true, sameSite: 'lax', secure });
        reply.setCookie(cookie.name, signedIn.cookieValue, cookie.set(signedIn.expiresAt, ctx.clock.now()));
        return reply.redirect(signedIn.returnTo, 302);
      }),
  );
  app.post(
    '/api/auth/oidc/backchannel-logout',
    {
      config: access('public'),
      schema: {
        summary: 'OIDC back-channel logout, called by the identity provider: ends the matching sessions',
        tags: ['auth'],
        querystring: Query({}),
        body: Type.Object({ logout_token: Type.String({ minLength: 1, maxLength: 16_384 }) }),
        response: { 200: Type.Object({ ended: Type.Integer() }), ...errorResponses },
      },
    },
    async (request) => ({ ended: await backchannelLogout(ctx, request.body.logout_token) }),
  );
}
