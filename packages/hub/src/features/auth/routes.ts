import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { HubApp, HubContext } from '../../context.ts';
import { RoleSchema } from '../../http/org-schemas.ts';
import { access, principalOf } from '../../http/principal.ts';
import { sessionCookie } from '../../services/sessions/cookie.ts';
import { signInBreakGlass, signOut } from './service.ts';

type Deps = Pick<
  HubContext,
  'audit' | 'breakGlass' | 'clock' | 'config' | 'database' | 'log' | 'metrics' | 'oidc' | 'sessions'
>;

const SignedIn = Type.Object({
  user: Type.Object({ id: Type.String(), email: Type.String(), name: Type.String() }),
  orgId: Type.String(),
  role: RoleSchema,
  expiresAt: Type.String({ format: 'date-time', description: 'end of the absolute lifetime' }),
});

export function authRoutes(app: HubApp, ctx: Deps): void {
  const cookie = sessionCookie(ctx.config.publicUrl);
  app.post(
    '/api/auth/break-glass/login',
    {
      config: access('public'),
      schema: {
        querystring: Query({}),
        summary:
          'Sign in as the break-glass admin (whatever the SSO state); sets the session cookie and the device cookie',
        description:
          'A replica still running a break-glass password older than the one in force answers 503 `not_ready` with `Retry-After` (ADR 0047).',
        tags: ['auth'],
        body: Type.Object(
          {
            email: Type.String({ minLength: 1, maxLength: 320 }),
            password: Type.String({ minLength: 1, maxLength: 1024 }),
          },
          { additionalProperties: false },
        ),
        response: { 200: SignedIn, ...errorResponses },
      },
    },
    async (request, reply) => {
      const signedIn = await signInBreakGlass(ctx, {
        ...request.body,
        ip: request.ip,
        offeredSession: request.cookies[cookie.name],
        deviceCookie: request.cookies[ctx.breakGlass.devices.name],
      });
      reply.setCookie(cookie.name, signedIn.cookieValue, cookie.set(signedIn.expiresAt, ctx.clock.now()));
      reply.setCookie(ctx.breakGlass.devices.name, signedIn.device.value, signedIn.device.options);
      return {
        user: signedIn.user,
        orgId: signedIn.orgId,
        role: signedIn.role,
        expiresAt: signedIn.expiresAt.toISOString(),
      };
    },
  );
  app.post(
    '/api/auth/signout',
    {
      config: access('viewer', { session: true }),
      schema: {
        summary:
          "End the session and clear its cookie; for OIDC sessions, also the IdP's logout URL when the IdP advertises end_session_endpoint",
        tags: ['auth'],
        querystring: Query({}),
        response: {
          200: Type.Object({
            signedOut: Type.Literal(true),
            logoutUrl: Type.Optional(
              Type.String({
                description: 'the IdP logout page, with id_token_hint; open it to end the IdP session too',
              }),
            ),
          }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      await signOut(ctx, principal, request.ip);
      reply.clearCookie(cookie.name, cookie.clear());
      const logoutUrl =
        principal.session?.method === 'oidc'
          ? await ctx.oidc?.endSessionUrl(principal.session.idToken)
          : undefined;
      return logoutUrl ? { signedOut: true as const, logoutUrl } : { signedOut: true as const };
    },
  );
}
