import type { Readable } from 'node:stream';
import { AppError, echo, errorResponses, toAppError } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { HubApp, HubContext } from '../../context.ts';
import { access } from '../../http/principal.ts';
import { clientAddress } from '../../security/client-address.ts';
import { recheckAfterChanges } from '../../services/tunnels/live-streams.ts';
import { acceptAgent, agentConnectPath, refuseUpgrade } from './agent-connect.ts';
import { type ProxyDeps, proxyRequest } from './proxy.ts';
import { takeReadsBeforeFastify } from './read-path.ts';
import { isTunneled, type TunneledUrl, tunneledUrl } from './tunneled-url.ts';
import { explainFailuresToBrowsers } from './unreachable-page.ts';
import { proxyUpgrade, type UpgradeDeps } from './upgrade.ts';

type Deps = UpgradeDeps & ProxyDeps & Pick<HubContext, 'proxyTrust'>;

/**
 * The tunnel's two doors: agents dial `/api/agents/connect` (an upgrade to HTTP/2 on the socket, ADR 0110), and
 * people reach any agent route at `/c/{cluster_id}/…` — plain reads on the read path ahead of fastify
 * (ADR 0112), other requests through a fastify route (so the access hook and metrics apply), WebSocket
 * upgrades through the server's upgrade event.
 */
export function tunnelRoutes(app: HubApp, ctx: Deps): void {
  app.server.on('upgrade', (request, socket, head) => {
    const url = request.url ?? '/';
    let tunneled: TunneledUrl | undefined;
    try {
      tunneled = tunneledUrl(url);
    } catch (error) {
      return refuseUpgrade(socket, toAppError(error));
    }
    let handled: Promise<void>;
    if (url.split('?')[0] === agentConnectPath) handled = acceptAgent(ctx, request, socket, head);
    else if (tunneled)
      handled = proxyUpgrade(
        ctx,
        request,
        socket,
        head,
        {
          headers: request.headers,
          cookies: app.parseCookie(request.headers.cookie ?? ''),
          url,
          ip: clientAddress(request, ctx.proxyTrust),
        },
        tunneled,
      );
    else
      return refuseUpgrade(
        socket,
        new AppError('route_not_found', `no WebSocket route at ${echo(url.split('?')[0] ?? '/')}`),
      );
    handled.catch((error: unknown) => {
      ctx.log.error({ err: error }, 'upgrade failed');
      socket.destroy();
    });
  });
  // Tunneled requests and the organisation-wide MCP endpoint act in clusters; they change no access here.
  recheckAfterChanges(app, ctx, (url) => isTunneled(url) || url.split('?')[0] === '/mcp');
  // Before the server waits for its connections: tunneled streams (SSE, logs) must end for it to close.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    ctx.tunnels.closeAll();
    done();
  });
  // `--debug-requests` promises a log line per request, which only fastify's path writes.
  if (!ctx.config.debugRequests) takeReadsBeforeFastify(app, ctx, () => closing);

  const anyType = { '*/*': { schema: {} } };
  app.register((scope, _options, registered) => {
    // Bodies travel to the agent untouched, whatever their type.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload as Readable));
    explainFailuresToBrowsers(scope);
    // The bare `/c/<cluster_id>/` is the agent's `/` (its web UI); the router folds its trailing slash away.
    // OPTIONS travels too: the agent's 405 names the methods of its route, which the hub cannot know.
    for (const url of ['/c/:cluster_id', '/c/:cluster_id/*']) {
      scope.route({
        method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
        url,
        // The agent compressed its answer as the client accepts (ADR 0058): its bytes are relayed as they are.
        config: { ...access('viewer'), compress: false },
        schema: {
          summary:
            "Any route of the cluster's agent, as the signed-in user; the cluster's RBAC decides (every hub role may call)",
          tags: ['tunnel'],
          params: Type.Object({
            cluster_id: Type.String({ minLength: 1, maxLength: 64 }),
            ...(url.endsWith('*') ? { '*': Type.String() } : {}),
          }),
          response: {
            '2xx': {
              description: "the agent's answer, in whatever media type its route gives",
              content: anyType,
            },
            '3xx': {
              description: "the agent's redirect (its sign-in, its web UI's paths)",
              content: anyType,
            },
            ...errorResponses,
          },
        },
        handler: (request, reply) => proxyRequest(ctx, request, reply, () => closing),
      });
    }
    registered();
  });
}
