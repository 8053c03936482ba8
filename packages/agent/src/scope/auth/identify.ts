import { AppError, unauthenticated } from '@binnacle/common/server';
import cookie from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ProxySettings } from '../../config/auth-settings.ts';
import { plainAddress } from '../../config/proxy-addresses.ts';
import type { AgentContext, App } from '../../context.ts';
import { authorizeCaller, refuseSystemIdentity } from '../../http/caller.ts';
import type { Impersonation } from '../../kube/client.ts';
import type { AgentOidc } from './oidc-service.ts';

const headerOf = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
};

/**
 * Proxy mode: the user and groups of the trusted headers, believed only from the configured proxy addresses
 * (decided by the connection's address, never by anything the client sends). Headers from anywhere else are a
 * 401 `proxy_not_trusted`; no user header is a 401 `unauthenticated`.
 */
export function proxyIdentity(
  settings: ProxySettings,
  headers: { user?: string; groups?: string },
  remoteAddress: string | undefined,
): Impersonation | undefined {
  const address = plainAddress(remoteAddress ?? '');
  const family = address.includes(':') ? 'ipv6' : 'ipv4';
  const trusted = address !== '' && settings.proxies.check(address, family);
  if ((headers.user !== undefined || headers.groups !== undefined) && !trusted)
    throw new AppError(
      'proxy_not_trusted',
      `identity headers came from ${address || 'an unknown address'}, which is not one of the trusted proxies (--auth-proxy-addresses)`,
    );
  // Blank counts as absent: an empty Impersonate-User is no impersonation at all, so the API server would
  // act as the agent itself.
  const user = headers.user?.trim();
  if (!user) return undefined;
  const groups = (headers.groups ?? '')
    .split(',')
    .map((group) => group.trim())
    .filter(Boolean);
  return { user, groups };
}

/** What sign-in reads: the configured sign-in and the access reviews of a signed-in caller's requests. */
type SignInContext = Pick<AgentContext, 'auth' | 'access'>;

/** The caller of a request in proxy or oidc mode; undefined when nobody is signed in. */
function identify(ctx: SignInContext, request: FastifyRequest): Impersonation | undefined {
  const auth = ctx.auth;
  if (!auth) return undefined;
  if (auth.settings.mode === 'proxy') {
    const { userHeader, groupsHeader } = auth.settings;
    return proxyIdentity(
      auth.settings,
      { user: headerOf(request, userHeader), groups: headerOf(request, groupsHeader) },
      request.socket.remoteAddress,
    );
  }
  const oidc = auth.oidc as AgentOidc;
  const session = oidc.store.find(request.cookies[oidc.cookie.name]);
  return session && { user: session.user, groups: session.groups };
}

const isPage = (request: FastifyRequest) =>
  (request.method === 'GET' || request.method === 'HEAD') &&
  !request.url.startsWith('/api/') &&
  (request.headers.accept ?? '').includes('text/html');

/**
 * `--auth-mode proxy|oidc`: every request acts as its signed-in caller (impersonated, as tunneled callers are),
 * `system:` identities are refused, and without a caller the answer is 401 — a browser page in oidc mode is sent
 * to /auth/login instead. Open: the probe (`/api/health`), the sign-in routes and the UI's static assets.
 */
export async function registerSignIn(app: App, ctx: SignInContext): Promise<void> {
  const auth = ctx.auth;
  if (!auth) return;
  if (auth.oidc) await app.register(cookie);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const config = request.routeOptions.config;
    if (config.probe || config.signInExempt || request.routeOptions.url === '/assets/*') return;
    const caller = identify(ctx, request);
    if (!caller) {
      if (config.signInOptional) return;
      if (auth.settings.mode === 'oidc' && isPage(request))
        return reply.redirect(`/auth/login?returnTo=${encodeURIComponent(request.url)}`, 302);
      throw unauthenticated(
        auth.settings.mode === 'oidc'
          ? 'sign in first: /auth/login'
          : `no ${auth.settings.userHeader} header: this agent serves only people its authenticating proxy signed in`,
      );
    }
    refuseSystemIdentity(caller, 'system: users and groups cannot use the agent as a signed-in person');
    request.caller = caller;
    await authorizeCaller(ctx, request, 'it is not served to signed-in people');
  });
}
