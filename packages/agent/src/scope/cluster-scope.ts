import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { AgentConfig } from '../config/agent-config.ts';
import { namespaceList } from '../config/setting-checks.ts';
import { AccessReviewer } from '../kube/access-review.ts';
import { Cluster } from '../kube/cluster.ts';
import type { ClusterTarget } from '../kube/kubeconfig.ts';
import { AuditEngine, clusterAuditSource } from './audit/engine.ts';
import { ClusterHistory } from './history/cluster-history.ts';
import type { HistoryStore } from './history/history-store.ts';
import { MetricsAvailability } from './metrics/api.ts';
import { MetricsPoller } from './metrics/poller.ts';
import { ChangeRecorder } from './timeline/recorder.ts';
import { MemoryTimelineStore } from './timeline/store/memory-store.ts';
import type { TimelineStore } from './timeline/types.ts';
import { TopologyService } from './topology/service.ts';

/**
 * The SQLite file of one context's timeline. The context the agent started with keeps the configured file (so an
 * agent that never switches reads what it always did); every other context gets its own file beside it, named
 * after the context, so two clusters' histories never mix.
 */
export function timelineDbPath(config: AgentConfig, context: string, startContext: string): string {
  const path = config.timelineDb ?? join(config.dataDir, 'timeline.db');
  if (context === startContext) return path;
  const slug = context.replace(/[^A-Za-z0-9_.-]+/g, '-').slice(0, 40);
  const hash = createHash('sha256').update(context).digest('hex').slice(0, 8);
  return `${path.replace(/\.db$/, '')}-${slug}-${hash}.db`;
}

/** The timeline store the configuration asks for, for one context (`path`: its SQLite file). */
async function openTimelineStore(
  config: AgentConfig,
  log: FastifyBaseLogger,
  path: string,
): Promise<TimelineStore> {
  if (config.timelineStorage === 'memory') return new MemoryTimelineStore(config.historyLimit);
  // SQLite and its query builder load only for an agent that keeps its timeline there.
  const { SqliteTimelineStore } = await import('./timeline/store/sqlite-store.ts');
  return SqliteTimelineStore.open({
    path,
    retentionMs: config.timelineRetentionMs,
    maxBytes: config.timelineMaxBytes,
    log: (message, detail) => log.error(detail, message),
  });
}

/**
 * The file of one context's kept object states, beside its timeline's (`timeline.db` → `timeline.history.db`),
 * when the timeline is kept in SQLite and time travel is on (ADR 0114).
 */
async function openHistoryStore(
  config: AgentConfig,
  timelinePath: string,
): Promise<HistoryStore | undefined> {
  if (config.timelineStorage !== 'sqlite' || config.timeTravelWindowMs === 0) return undefined;
  const { HistoryStore } = await import('./history/history-store.ts');
  return HistoryStore.open(timelinePath.replace(/(\.db)?$/, '.history.db'));
}

/**
 * Every part of the agent that belongs to one kubeconfig context: the client and informer cache, the timeline
 * recorder and its store, the objects' past states (time travel), the topology memo, the audit, the metrics poller and the access reviewer. A context
 * switch closes one scope and opens another, so no part can keep talking to the cluster that was left.
 */
export class ClusterScope {
  readonly cluster: Cluster;
  readonly timeline: ChangeRecorder;
  readonly history: ClusterHistory;
  readonly #historyStore?: HistoryStore;
  readonly topology: TopologyService;
  readonly audit: AuditEngine;
  readonly metrics: { availability: MetricsAvailability; poller: MetricsPoller };
  readonly access: AccessReviewer;

  private constructor(
    config: AgentConfig,
    target: ClusterTarget,
    store: TimelineStore,
    latestSeq: number,
    log: FastifyBaseLogger,
    historyStore: HistoryStore | undefined,
  ) {
    this.cluster = new Cluster(target, {
      namespaces: config.namespace ? namespaceList(config.namespace) : undefined,
      log: (level, message, detail) => log[level](detail ?? {}, message),
    });
    const availability = new MetricsAvailability(this.cluster.client);
    this.timeline = new ChangeRecorder(this.cluster.cache, store, {
      latestSeq,
      log: (level, message, detail) => log[level](detail, message),
    });
    this.history = new ClusterHistory(this.cluster.cache, {
      windowMs: config.timeTravelWindowMs,
      maxBytes: config.timeTravelMaxBytes,
      configMapValues: config.timeTravelConfigMapValues,
      ...(historyStore ? { store: historyStore } : {}),
      onResumed: (resource, gap, changes) => this.timeline.resumed(resource, gap, changes),
      log: (message, detail) => log.error(detail, message),
    });
    this.#historyStore = historyStore;
    this.topology = new TopologyService(config.topologyMaxNodes);
    this.audit = new AuditEngine(clusterAuditSource(this.cluster));
    this.metrics = {
      availability,
      poller: new MetricsPoller(this.cluster, availability, {
        intervalMs: config.metricsPollMs,
        capacity: config.metricsHistory,
        log: (message, detail) => log.warn(detail, message),
      }),
    };
    this.access = new AccessReviewer(this.cluster.client);
  }

  /** Opens the scope's timeline store and wires its parts; nothing talks to the cluster until `start`. */
  static async open(
    config: AgentConfig,
    target: ClusterTarget,
    log: FastifyBaseLogger,
    startContext: string,
  ): Promise<ClusterScope> {
    const store = await openTimelineStore(
      config,
      log,
      timelineDbPath(config, target.contextName, startContext),
    );
    const { latestSeq } = await store.stats();
    const historyStore = await openHistoryStore(
      config,
      timelineDbPath(config, target.contextName, startContext),
    );
    const scope = new ClusterScope(config, target, store, latestSeq, log, historyStore);
    // Subscribed before the cluster starts, so the first lists of every kind reach the timeline.
    scope.timeline.start();
    scope.history.start();
    scope.metrics.poller.start();
    return scope;
  }

  get target(): ClusterTarget {
    return this.cluster.target;
  }

  /** Connects, retrying with back-off; resolves when the core kinds have synced (or the scope was closed). */
  start(): Promise<void> {
    return this.cluster.start();
  }

  async close(): Promise<void> {
    this.history.stop();
    this.#historyStore?.close();
    await Promise.allSettled([this.cluster.stop(), this.metrics.poller.stop()]);
    await this.timeline.stop();
    await this.timeline.store.close();
  }
}
