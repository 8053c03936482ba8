import type { IncomingMessage, ServerResponse } from 'node:http';
import { toAppError } from '@binnacle/common/server';
import type { HubApp, HubContext } from '../../context.ts';
import { authenticate, type Credentials } from '../../http/authenticate.ts';
import { clientAddress } from '../../security/client-address.ts';
import type { Principal } from '../../security/principal.ts';
import { atLeast } from '../../security/roles.ts';
import { tunnelFor } from '../../services/clusters/reach.ts';
import { type ProxyDeps, relayToAgent } from './proxy.ts';
import { type TunneledUrl, tunneledUrl } from './tunneled-url.ts';
import { isPageLoad } from './unreachable-page.ts';
import type { UpgradeDeps } from './upgrade.ts';

type Deps = UpgradeDeps & ProxyDeps & Pick<HubContext, 'proxyTrust'>;

/** A cluster id longer than the route's schema allows is the route's to refuse. */
const maxClusterId = 64;

/**
 * A GET or HEAD of a cluster's, without a body, from a script or the web UI's code: what the read path takes.
 * Anything else goes to fastify, a browser's page load too (its failures are explained on a page).
 */
function plainRead(request: IncomingMessage): TunneledUrl | undefined {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  if (isPageLoad({ method: request.method, headers: request.headers })) return undefined;
  const url = request.url ?? '';
  if (!url.startsWith('/c/')) return undefined;
  const length = request.headers['content-length'];
  if ((length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined)
    return undefined;
  try {
    const target = tunneledUrl(url);
    return target && target.clusterId.length <= maxClusterId ? target : undefined;
  } catch {
    return undefined; // the route answers a malformed URL
  }
}

/** The label the fastify route gives its requests in the metrics. */
const routeLabel = (target: TunneledUrl) =>
  /^\/?(\?|$)/.test(target.agentPath) ? '/c/:cluster_id' : '/c/:cluster_id/*';

/**
 * The hot path of the tunnel (ADR 0112): a plain read of `/c/<cluster_id>/…` skips fastify — its routing, hook
 * chain, per-request logger and reply objects cost more of the hub's CPU than the relay itself. What the route
 * applies, it applies too: the same authentication and role check as the access hook (every role may call),
 * the identity signed for the cluster, `Cache-Control: no-store` unless the agent says otherwise, live-stream
 * tracking, the route's metrics. Whenever it refuses before the agent is asked, fastify answers instead (so
 * those failures keep their one rendering), as it does any other request and all of them once the hub is
 * closing; a failure after the agent was asked (the tunnel dropped, the access ended) is answered here as the
 * route's error handler would, `{error, code}`, never by sending the request again.
 */
export function takeReadsBeforeFastify(app: HubApp, ctx: Deps, closing: () => boolean): void {
  const server = app.server;
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const target = closing() ? undefined : plainRead(request);
    if (!target) return app.routing(request, response);
    relayRead(app, ctx, request, response, target, closing).catch((error: unknown) => {
      if (closing()) response.shouldKeepAlive = false;
      answerFailure(ctx, response, error);
    });
  });
}

async function relayRead(
  app: HubApp,
  ctx: Deps,
  request: IncomingMessage,
  response: ServerResponse,
  target: TunneledUrl,
  closing: () => boolean,
): Promise<void> {
  const started = performance.now();
  const reached = await reach(app, ctx, request, target);
  if (!reached) return app.routing(request, response);
  const method = request.method as string;
  response.once('finish', () => {
    const route = routeLabel(target);
    ctx.metrics.requests.inc({ method, route, status: String(response.statusCode) });
    ctx.metrics.duration.observe({ method, route }, (performance.now() - started) / 1000);
  });
  await relayToAgent(ctx, { request, response, target, caller: reached.caller, closing }, reached.tunnel);
}

/** The caller and their tunnel, as the access hook and the route find them; undefined where either refuses. */
async function reach(app: HubApp, ctx: Deps, request: IncomingMessage, target: TunneledUrl) {
  const credentials: Credentials = {
    headers: request.headers,
    cookies: app.parseCookie(request.headers.cookie ?? ''),
    url: request.url ?? '/',
    ip: clientAddress(request, ctx.proxyTrust),
  };
  let cookieCleared = false;
  let caller: Principal;
  try {
    caller = await authenticate(ctx, credentials, () => {
      cookieCleared = true;
    });
    if (cookieCleared || !atLeast(caller.role, 'viewer')) return undefined;
    return { caller, tunnel: await tunnelFor(ctx, caller, target.clusterId) };
  } catch {
    return undefined;
  }
}

/** A failure after the agent was asked, as the route's error handler answers an API client (error-handler.ts). */
function answerFailure(ctx: Deps, response: ServerResponse, error: unknown): void {
  const failure = toAppError(error);
  if (failure.code === 'internal_error') ctx.log.error({ err: failure.cause ?? error }, failure.message);
  else if (failure.status >= 500) ctx.log.warn({ code: failure.code }, failure.message);
  if (response.headersSent) return void response.destroy();
  response
    .writeHead(failure.status, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...failure.headers,
    })
    .end(JSON.stringify(failure.toBody()));
}
