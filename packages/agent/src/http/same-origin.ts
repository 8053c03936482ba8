import { isIP } from 'node:net';
import { AppError, forbidden, type TypedApp } from '@binnacle/common/server';
import type { FastifyRequest } from 'fastify';

const loopbackNames = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** A loopback name or address: localhost, [::1], ::1, 127.x.y.z. */
export const isLoopback = (address: string) =>
  loopbackNames.has(address) || (isIP(address) === 4 && address.startsWith('127.'));

/** The host part (name or address, no port) of a Host header or an origin's host. */
const hostname = (host: string) =>
  (host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]) ?? '';

const originHost = (origin: string): string | undefined => {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
};

/**
 * Browsers are the agent's users, and other pages run in the same browsers. Two rules hold in every mode
 * (`--auth-mode none` included, where a page could otherwise open a terminal on the user's machine):
 * - a change (POST, PUT, PATCH, DELETE) or a WebSocket handshake that names an `Origin` must come from a page
 *   of this agent: the origin's host is the request's `Host`, or with OIDC sign-in the origin is the public
 *   URL's (SameSite=Lax sends the cookie from sibling hosts and other ports of the same site too);
 * - an agent listening on loopback (outside cloud mode) answers only requests addressed to a loopback name,
 *   so a page whose own name was re-pointed at 127.0.0.1 (DNS rebinding) reads and changes nothing.
 * Requests without a browser (curl, the hub's tunnel) send no Origin and pass the first rule.
 */
/** What the page rules read: cloud mode or not, the listen address, the public URL of OIDC sign-in. */
export interface PageRules {
  cloud?: object;
  config: { listenAddress: string };
  auth?: { settings: { mode: 'proxy' } | { mode: 'oidc'; publicUrl: string } };
}

export function refuseOtherPages(app: TypedApp, ctx: PageRules): void {
  // In cloud mode nothing but the hub's tunnel reaches the routes (its handshakes name `agent.tunnel`).
  const onLoopback = !ctx.cloud && isLoopback(ctx.config.listenAddress);
  // Signed in with OIDC, the agent knows its public URL: pages must come from exactly there (scheme included).
  const publicUrl = ctx.auth?.settings.mode === 'oidc' ? new URL(ctx.auth.settings.publicUrl) : undefined;
  const publicHost = publicUrl?.host;
  const refusal = (request: FastifyRequest): AppError | undefined => {
    const host = request.headers.host ?? '';
    if (onLoopback && !isLoopback(hostname(host)) && host !== publicHost)
      return forbidden(
        `this agent listens on ${ctx.config.listenAddress} and answers requests addressed to it (localhost, 127.0.0.1, [::1]), not to ${host || 'no Host'}`,
      );
    const socket = request.headers.upgrade?.toLowerCase() === 'websocket';
    if (!socket && ['GET', 'HEAD', 'OPTIONS'].includes(request.method)) return undefined;
    const origin = request.headers.origin;
    if (origin === undefined) return undefined;
    if (publicUrl ? origin === publicUrl.origin : originHost(origin) === host) return undefined;
    return new AppError(
      'origin_rejected',
      `a change or a socket must come from this agent's own pages, not from ${origin}`,
    );
  };
  app.addHook('onRequest', (request, _reply, done) => done(refusal(request)));
}
