import { AppError, errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { App } from '../../context.ts';
import { signInExempt } from '../../http/caller.ts';
import {
  type AgentOidc,
  backchannelLogout,
  finishLogin,
  logout,
  startLogin,
} from '../../scope/auth/oidc-service.ts';
import type { AuthContext } from './module.ts';

const Redirect = Type.Null({ description: 'a redirect (Location header)' });
const tags = ['auth'];
/** Said of every route here, in the document: they are declared in every mode. */
const oidcOnly = '; 404 route_not_found unless --auth-mode oidc';

/**
 * `--auth-mode oidc`: the agent's own sign-in, as top-level browser navigations (login, callback, logout) and
 * the IdP's back-channel logout. Declared in every mode, so the OpenAPI document lists them however it was
 * generated; without OIDC sign-in they answer 404 `route_not_found`.
 */
export function authRoutes(app: App, ctx: AuthContext): void {
  const configured = ctx.auth?.oidc;
  const signInOn = (): AgentOidc => {
    if (!configured)
      throw new AppError('route_not_found', 'sign-in is off on this agent: /auth/* serves --auth-mode oidc');
    return configured;
  };
  const loginCookie = (oidc: AgentOidc) =>
    ({
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: oidc.settings.publicUrl.startsWith('https:'),
    }) as const;
  app.get(
    '/auth/login',
    {
      config: signInExempt,
      schema: {
        tags,
        summary: `Start sign-in (a browser navigation): redirects to the identity provider with PKCE, state and nonce${oidcOnly}`,
        querystring: Query({
          returnTo: Type.Optional(
            Type.String({ maxLength: 2048, description: 'a path on the agent to land on afterwards' }),
          ),
        }),
        response: { 302: Redirect, ...errorResponses },
      },
    },
    async (request, reply) => {
      const oidc = signInOn();
      const login = await startLogin(oidc, request.query.returnTo);
      reply.setCookie(login.cookie.name, login.cookie.value, {
        ...loginCookie(oidc),
        maxAge: login.cookie.maxAgeSeconds,
      });
      return reply.redirect(login.url, 302);
    },
  );
  app.get(
    '/auth/callback',
    {
      config: signInExempt,
      schema: {
        tags,
        summary: `The identity provider's redirect after sign-in: opens a session, redirects to the return path${oidcOnly}`,
        querystring: Type.Object(
          {
            code: Type.Optional(Type.String()),
            state: Type.Optional(Type.String()),
            error: Type.Optional(Type.String()),
            error_description: Type.Optional(Type.String()),
          },
          { additionalProperties: true, description: 'as the IdP sends it' },
        ),
        response: { 302: Redirect, ...errorResponses },
      },
    },
    async (request, reply) => {
      const oidc = signInOn();
      const signedIn = await finishLogin(oidc, {
        query: request.query,
        rawQuery: request.url.slice(request.url.indexOf('?') + 1),
        cookies: request.cookies,
      });
      reply.clearCookie(signedIn.loginCookie, loginCookie(oidc));
      reply.setCookie(
        oidc.cookie.name,
        signedIn.cookieValue,
        oidc.cookie.set(signedIn.expiresAt, new Date(oidc.now())),
      );
      return reply.redirect(signedIn.returnTo, 302);
    },
  );
  app.get(
    '/auth/logout',
    {
      config: signInExempt,
      schema: {
        tags,
        summary: `Sign out: ends the session and redirects to the IdP's logout page when it advertises end_session_endpoint, else to /${oidcOnly}`,
        querystring: Query({}),
        response: { 302: Redirect, ...errorResponses },
      },
    },
    async (request, reply) => {
      const oidc = signInOn();
      const logoutUrl = await logout(oidc, request.cookies[oidc.cookie.name]);
      reply.clearCookie(oidc.cookie.name, oidc.cookie.clear());
      return reply.redirect(logoutUrl ?? '/', 302);
    },
  );
  // The IdP posts a form; only this route takes one (elsewhere a cross-site form post stays a 415).
  void app.register((formScope, _options, done) => {
    formScope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    backchannelRoute(formScope as unknown as App, signInOn);
    done();
  });
}

function backchannelRoute(app: App, signInOn: () => AgentOidc): void {
  app.post(
    '/auth/backchannel-logout',
    {
      config: signInExempt,
      schema: {
        tags,
        summary: `OIDC back-channel logout, called by the identity provider: ends the matching sessions${oidcOnly}`,
        querystring: Query({}),
        // The IdP posts a form (OpenID Connect Back-Channel Logout §2.5); JSON is read as everywhere.
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        body: Type.Object({ logout_token: Type.String({ minLength: 1, maxLength: 16_384 }) }),
        response: { 200: Type.Object({ ended: Type.Integer() }), ...errorResponses },
      },
    },
    async (request) => ({ ended: await backchannelLogout(signInOn(), request.body.logout_token) }),
  );
}
