import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyServerOptions, LogController } from 'fastify';
import type { AgentContext, App } from './context.ts';
import { configRoutes } from './features/config/routes.ts';
import { dashboardRoutes } from './features/dashboard/routes.ts';
import { debugRoutes } from './features/debug/routes.ts';
import { execRoutes } from './features/exec/routes.ts';
import { healthRoutes } from './features/health/routes.ts';
import { logRoutes } from './features/logs/routes.ts';
import { pkgmgrRoutes } from './features/pkgmgr/routes.ts';
import { portForwardRoutes } from './features/portforward/routes.ts';
import { resourceRoutes } from './features/resources/routes.ts';
import { sessionRoutes } from './features/sessions/routes.ts';
import { timelineRoutes } from './features/timeline/routes.ts';
import { topologyRoutes } from './features/topology/routes.ts';
import { registerErrorHandling } from './http/error-handler.ts';
import { openApiRoute, registerOpenApi } from './http/openapi.ts';

export interface ServerOptions {
  logger?: FastifyServerOptions['loggerInstance'] | boolean;
  /** Log every request (the --debug-events flag). */
  logRequests?: boolean;
}

/**
 * The agent's HTTP app: conventions first (errors, no-store, OpenAPI), then one register call per feature.
 * Features get the context explicitly; none reaches into another.
 */
export async function buildServer(ctx: AgentContext, options: ServerOptions = {}): Promise<App> {
  const app = Fastify({
    ...(typeof options.logger === 'object'
      ? { loggerInstance: options.logger }
      : { logger: options.logger ?? false }),
    logController: new LogController({ disableRequestLogging: !options.logRequests }),
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
    ajv: {
      customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: false },
    },
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;

  // Every answer — JSON, errors, 404s, streams, static files — carries no-store (DESIGN §4.1).
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
  });
  registerErrorHandling(app);
  await registerOpenApi(app, {
    title: 'Binnacle agent API',
    version: ctx.version,
    description:
      'The agent serves one cluster. Errors are { error, code } (docs/api/errors.md); every response carries Cache-Control: no-store.',
  });

  // Before any route, so WebSocket routes can take their upgrades.
  await app.register(websocket, { options: { maxPayload: 1024 * 1024 } });
  openApiRoute(app);
  healthRoutes(app, ctx);
  configRoutes(app, ctx);
  resourceRoutes(app, ctx);
  dashboardRoutes(app, ctx);
  pkgmgrRoutes(app, ctx);
  timelineRoutes(app, ctx);
  topologyRoutes(app, ctx);
  logRoutes(app, ctx);
  execRoutes(app, ctx);
  portForwardRoutes(app, ctx);
  sessionRoutes(app, ctx);
  debugRoutes(app, ctx);
  return app;
}
