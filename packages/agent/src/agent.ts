import { UsageError } from '@binnacle/common/server';
import { dialHub } from '@binnacle/tunnel';
import type { FastifyBaseLogger } from 'fastify';
import packageJson from '../package.json' with { type: 'json' };
import {
  type AgentConfig,
  ConfigFileSchema,
  configFilePath,
  SettingsSchema,
  settingsFilePath,
} from './config/agent-config.ts';
import { authSettings } from './config/auth-settings.ts';
import { JsonFile } from './config/json-file.ts';
import type { AgentContext, App } from './context.ts';
import { checkDesktopConfig } from './features/desktop/service.ts';
import { SessionRegistry } from './http/sessions.ts';
import type { ClusterTarget } from './kube/kubeconfig.ts';
import { agentOidc } from './scope/auth/oidc-service.ts';
import { ClusterScope } from './scope/cluster-scope.ts';
import { ClusterConnection } from './scope/connection.ts';
import { buildServer } from './server.ts';

export const agentVersion = packageJson.version;

export interface Agent {
  ctx: AgentContext;
  app: App;
  /** Listens on the configured address and port; resolves with the base URL. */
  listen(): Promise<string>;
  /** Stops serving, ends every watch and closes the cluster connection. */
  close(): Promise<void>;
}

/**
 * Wires one agent: the cluster connection, the files it persists, the HTTP app. The CLI and the test harness
 * both build agents here, so tests run exactly what users run. With `connect`, the cluster connection starts as
 * soon as its scope is open, before the HTTP app is built (ADR 0113): the first lists are in flight while the
 * routes register, instead of after. Without it, call `agent.ctx.connection.start()` (requests answer 503
 * `not_ready` until it has synced).
 */
export async function createAgent(
  config: AgentConfig,
  target: ClusterTarget,
  log: FastifyBaseLogger,
  options: { connect?: boolean } = {},
): Promise<Agent> {
  if (Boolean(config.cloudUrl) !== Boolean(config.clusterToken)) {
    throw new UsageError(
      'cloud mode needs both --cloud-url and --cluster-token (BINNACLE_CLOUD_URL, BINNACLE_CLUSTER_TOKEN)',
    );
  }
  checkDesktopConfig(config);
  const auth = authSettings(config, process.env);
  let clusterId: string | undefined;
  const sessions = new SessionRegistry();
  const connection = new ClusterConnection(
    await ClusterScope.open(config, target, log, target.contextName),
    config,
    sessions,
    log,
  );
  const ctx: AgentContext = {
    version: agentVersion,
    startedAt: new Date(),
    mode: target.source === 'in-cluster' ? 'in-cluster' : 'local',
    config,
    connection,
    get cluster() {
      return connection.scope.cluster;
    },
    configFile: new JsonFile(configFilePath(config.dataDir), ConfigFileSchema, () => ({})),
    settingsFile: new JsonFile(settingsFilePath(config.dataDir), SettingsSchema, () => ({})),
    get timeline() {
      return connection.scope.timeline;
    },
    get history() {
      return connection.scope.history;
    },
    get topology() {
      return connection.scope.topology;
    },
    get audit() {
      return connection.scope.audit;
    },
    sessions,
    get metrics() {
      return connection.scope.metrics;
    },
    get access() {
      return connection.scope.access;
    },
    cloud:
      config.cloudUrl && config.clusterToken
        ? {
            hubUrl: config.cloudUrl,
            clusterToken: config.clusterToken,
            clusterId: () => clusterId,
          }
        : undefined,
    auth: auth && { settings: auth, oidc: auth.mode === 'oidc' ? agentOidc(auth, log) : undefined },
    log,
  };
  // Everything that subscribes to the cache as a scope opens is subscribed by now; features bind to the
  // connection as their routes register, and a kind synced before they bind is read whole from the cache.
  if (options.connect) void connection.start();
  let tunnel: { close(): Promise<void> } | undefined;
  const app = await buildServer(ctx, { logger: log, logRequests: config.debugEvents });
  return {
    ctx,
    app,
    async listen() {
      const address = await app.listen({ port: config.port, host: config.listenAddress });
      if (ctx.cloud) {
        // Tunneled requests run through this server's routes, handed over in process (ADR 0111).
        tunnel = dialHub({
          hubUrl: ctx.cloud.hubUrl,
          clusterToken: ctx.cloud.clusterToken,
          agentVersion,
          target: { server: app.server },
          onState: (state, detail) => {
            if (state === 'connected') clusterId = detail;
            log[state === 'disconnected' ? 'warn' : 'info'](
              { tunnel: state, detail: state === 'connected' ? undefined : detail },
              `hub tunnel ${state}`,
            );
          },
        });
      }
      return address;
    },
    async close() {
      await tunnel?.close();
      ctx.sessions.closeAll('the agent is shutting down');
      await Promise.allSettled([app.close(), connection.close()]);
    },
  };
}
