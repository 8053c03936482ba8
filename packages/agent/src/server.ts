import { createApp, registerWebAssets, webPage } from '@binnacle/common/server';
import websocket from '@fastify/websocket';
import type { FastifyBaseLogger } from 'fastify';
import type { AgentContext, App } from './context.ts';
import { agentUpdateRoutes } from './features/agent-update/routes.ts';
import { aiRoutes } from './features/ai/routes.ts';
import { auditRoutes } from './features/audit/routes.ts';
import { registerSignIn } from './features/auth/identify.ts';
import { authRoutes } from './features/auth/routes.ts';
import { certificateRoutes } from './features/certificates/routes.ts';
import { configRoutes } from './features/config/routes.ts';
import { contextRoutes } from './features/contexts/routes.ts';
import { costRoutes } from './features/cost/routes.ts';
import { cronJobRoutes } from './features/cronjobs/routes.ts';
import { dashboardRoutes } from './features/dashboard/routes.ts';
import { debugRoutes } from './features/debug/routes.ts';
import { desktopRoutes } from './features/desktop/routes.ts';
import { execRoutes } from './features/exec/routes.ts';
import { gitopsRoutes } from './features/gitops/routes.ts';
import { healthRoutes } from './features/health/routes.ts';
import { imageRoutes } from './features/images/routes.ts';
import { logRoutes } from './features/logs/routes.ts';
import { mcpRoutes } from './features/mcp/routes.ts';
import { metricsRoutes } from './features/metrics/routes.ts';
import { metricsdbRoutes, metricsStores } from './features/metricsdb/routes.ts';
import { networkPolicyRoutes } from './features/netpol/routes.ts';
import { nodeRoutes } from './features/nodes/routes.ts';
import { packagesRoutes } from './features/packages/routes.ts';
import { pkgmgrRoutes } from './features/pkgmgr/routes.ts';
import { portForwardRoutes } from './features/portforward/routes.ts';
import { repohostRoutes } from './features/repohost/routes.ts';
import { resourceRoutes } from './features/resources/routes.ts';
import { sessionRoutes } from './features/sessions/routes.ts';
import { tableRoutes } from './features/tables/routes.ts';
import { timelineRoutes } from './features/timeline/routes.ts';
import { topologyRoutes } from './features/topology/routes.ts';
import { trafficRoutes } from './features/traffic/routes.ts';
import { workloadRoutes } from './features/workloads/routes.ts';
import { callerAware, refuseDirectCallers, registerCallerIdentity, uiBase } from './http/caller.ts';
import { refuseOtherPages } from './http/same-origin.ts';

export interface ServerOptions {
  logger: FastifyBaseLogger;
  /** Log every request (the --debug-events flag). */
  logRequests?: boolean;
}

/**
 * The agent's HTTP app: the shared conventions (errors, no-store, OpenAPI), then one register call per
 * feature. Features get the context explicitly; none reaches into another.
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
  healthRoutes(app, ctx);
  authRoutes(app, ctx);
  configRoutes(app, ctx);
  contextRoutes(app, ctx);
  resourceRoutes(app, ctx);
  tableRoutes(app, ctx);
  dashboardRoutes(app, ctx);
  pkgmgrRoutes(app, ctx);
  packagesRoutes(app, ctx);
  timelineRoutes(app, ctx);
  const stores = metricsStores(app, ctx);
  topologyRoutes(app, ctx, trafficRoutes(app, ctx, stores));
  logRoutes(app, ctx);
  execRoutes(app, ctx);
  portForwardRoutes(app, ctx);
  sessionRoutes(app, ctx);
  workloadRoutes(app, ctx);
  cronJobRoutes(app, ctx);
  gitopsRoutes(app, ctx);
  certificateRoutes(app, ctx);
  aiRoutes(app, ctx);
  repohostRoutes(app, ctx);
  agentUpdateRoutes(app, ctx);
  desktopRoutes(app, ctx);
  if (!ctx.config.noMcp) mcpRoutes(app, ctx, { readOnly: ctx.config.mcpReadOnly });
  auditRoutes(app, ctx);
  networkPolicyRoutes(app, ctx);
  nodeRoutes(app, ctx);
  metricsRoutes(app, ctx);
  imageRoutes(app, ctx);
  metricsdbRoutes(app, ctx, stores);
  costRoutes(app, ctx, stores);
  // Cloud mode removes every debug route (docs/architecture.md §5): they answer 404, directly and through the tunnel.
  if (!ctx.cloud) debugRoutes(app, ctx);
  return app;
}
