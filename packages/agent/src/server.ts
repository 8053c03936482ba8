import { createApp, registerWebAssets, webPage } from '@binnacle/common/server';
import websocket from '@fastify/websocket';
import type { FastifyBaseLogger } from 'fastify';
import type { AgentContext, App } from './context.ts';
import { callerAware, refuseDirectCallers, registerCallerIdentity, uiBase } from './http/caller.ts';
import { refuseOtherPages } from './http/same-origin.ts';
import { registerModules } from './module.ts';
import { agentModules, agentToolOrder } from './modules.ts';
import { registerSignIn } from './scope/auth/identify.ts';

export interface ServerOptions {
  logger: FastifyBaseLogger;
  /** Log every request (the --debug-events flag). */
  logRequests?: boolean;
}

/**
 * The agent's HTTP app: the shared conventions (errors, no-store, OpenAPI, caller identity), then the feature
 * modules of modules.ts, each given the part of the context it declares.
 */
export async function buildServer(ctx: AgentContext, options: ServerOptions): Promise<App> {
  const app = (await createApp({
    logger: options.logger,
    logRequests: options.logRequests,
    page: webPage((request) => uiBase(ctx, request), 'agent'),
    openapi: {
      title: 'Binnacle agent API',
      version: ctx.version,
      description:
        'The agent serves one cluster at a time (one kubeconfig context; /api/contexts switches). Errors are { error, code } (docs/api/errors.md); every response carries Cache-Control: no-store.',
    },
  })) as unknown as App;
  // Before any route, so WebSocket routes can take their upgrades.
  await app.register(websocket, { options: { maxPayload: 1024 * 1024 } });
  // After the WebSocket plugin: its own hooks must see refused upgrades, or their sockets would linger.
  refuseDirectCallers(app, ctx);
  refuseOtherPages(app, ctx);
  registerCallerIdentity(app, ctx);
  // --auth-mode proxy|oidc: who is signed in, acting as them (never together with cloud mode).
  await registerSignIn(app, ctx);
  // The same files for everyone, nothing of the cluster in them: served to tunneled callers as well.
  await registerWebAssets(app, callerAware);
  // Each feature, with the part of the context it declares.
  await registerModules(app, ctx, agentModules, agentToolOrder);
  return app;
}
