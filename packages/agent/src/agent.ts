import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
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
import { JsonFile } from './config/json-file.ts';
import type { AgentContext, App } from './context.ts';
import { AuditEngine, clusterAuditSource } from './features/audit/engine.ts';
import { agentOidc } from './features/auth/oidc-service.ts';
import { authSettings } from './features/auth/settings.ts';
import { ReleaseChecker } from './features/health/version-check.ts';
import { MetricsAvailability } from './features/metrics/api.ts';
import { MetricsPoller } from './features/metrics/poller.ts';
import { ChartSources } from './features/pkgmgr/chart-sources.ts';
import { parseHelmRepositories } from './features/pkgmgr/repositories.ts';
import { ChangeRecorder } from './features/timeline/recorder.ts';
import { MemoryTimelineStore } from './features/timeline/store/memory-store.ts';
import type { TimelineStore } from './features/timeline/types.ts';
import { TopologyService } from './features/topology/service.ts';
import { SessionRegistry } from './http/sessions.ts';
import { AccessReviewer } from './kube/access-review.ts';
import { Cluster } from './kube/cluster.ts';
import type { ClusterTarget } from './kube/kubeconfig.ts';
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

/** The timeline store the configuration asks for. */
export async function openTimelineStore(config: AgentConfig, log: FastifyBaseLogger): Promise<TimelineStore> {
  if (config.timelineStorage === 'memory') return new MemoryTimelineStore(config.historyLimit);
  // SQLite and its query builder load only for an agent that keeps its timeline there.
  const { SqliteTimelineStore } = await import('./features/timeline/store/sqlite-store.ts');
  return SqliteTimelineStore.open({
    path: config.timelineDb ?? join(config.dataDir, 'timeline.db'),
    retentionMs: config.timelineRetentionMs,
    maxBytes: config.timelineMaxBytes,
    log: (message, detail) => log.error(detail, message),
  });
}

/**
 * Wires one agent: the cluster connection, the files it persists, the HTTP app. The CLI and the test harness
 * both build agents here, so tests run exactly what users run. The cluster is not started: call
 * `agent.ctx.cluster.start()` (requests answer 503 `not_ready` until it has synced).
 */
export async function createAgent(
  config: AgentConfig,
  target: ClusterTarget,
  log: FastifyBaseLogger,
): Promise<Agent> {
  const cluster = new Cluster(target, {
    namespace: config.namespace,
    log: (level, message, detail) => log[level](detail ?? {}, message),
  });
  if (Boolean(config.cloudUrl) !== Boolean(config.clusterToken)) {
    throw new UsageError(
      'cloud mode needs both --cloud-url and --cluster-token (BINNACLE_CLOUD_URL, BINNACLE_CLUSTER_TOKEN)',
    );
  }
  const auth = authSettings(config, process.env);
  let clusterId: string | undefined;
  const availability = new MetricsAvailability(cluster.client);
  const ctx: AgentContext = {
    version: agentVersion,
    startedAt: new Date(),
    mode: target.source === 'in-cluster' ? 'in-cluster' : 'local',
    config,
    cluster,
    configFile: new JsonFile(configFilePath(config.dataDir), ConfigFileSchema, () => ({})),
    settingsFile: new JsonFile(settingsFilePath(config.dataDir), SettingsSchema, () => ({})),
    releases: new ReleaseChecker(agentVersion, config.releaseFeedUrl),
    timeline: new ChangeRecorder(cluster.cache, await openTimelineStore(config, log)),
    topology: new TopologyService(config.topologyMaxNodes),
    audit: new AuditEngine(clusterAuditSource(cluster)),
    sessions: new SessionRegistry(),
    charts: new ChartSources(parseHelmRepositories(config.helmRepositories)),
    metrics: {
      availability,
      poller: new MetricsPoller(cluster, availability, {
        intervalMs: config.metricsPollMs,
        capacity: config.metricsHistory,
        namespace: config.namespace,
        log: (message, detail) => log.warn(detail, message),
      }),
    },
    access: new AccessReviewer(cluster.client),
    cloud:
      config.cloudUrl && config.clusterToken
        ? {
            hubUrl: config.cloudUrl,
            clusterToken: config.clusterToken,
            clusterId: () => clusterId,
            tunnelPeers: new Set<string>(),
          }
        : undefined,
    auth: auth && { settings: auth, oidc: auth.mode === 'oidc' ? agentOidc(auth, log) : undefined },
    log,
  };
  let tunnel: { close(): Promise<void> } | undefined;
  // Subscribed before the cluster starts, so the first lists of every kind reach the timeline.
  ctx.timeline.start();
  ctx.metrics.poller.start();
  const app = await buildServer(ctx, { logger: log, logRequests: config.debugEvents });
  return {
    ctx,
    app,
    async listen() {
      const address = await app.listen({ port: config.port, host: config.listenAddress });
      if (ctx.cloud) {
        // Tunneled requests reach this listener on loopback, through exactly the routes direct ones use.
        const { port } = app.server.address() as AddressInfo;
        const host = ['0.0.0.0', '::'].includes(config.listenAddress) ? '127.0.0.1' : config.listenAddress;
        tunnel = dialHub({
          hubUrl: ctx.cloud.hubUrl,
          clusterToken: ctx.cloud.clusterToken,
          agentVersion,
          target: { host, port, tunnelPeers: ctx.cloud.tunnelPeers },
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
      ctx.sessions.closeAll();
      await Promise.allSettled([app.close(), cluster.stop(), ctx.metrics.poller.stop()]);
      await ctx.timeline.stop();
      await ctx.timeline.store.close();
    },
  };
}
