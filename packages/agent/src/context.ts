import type { TypedApp } from '@binnacle/common/server';
import type { FastifyBaseLogger } from 'fastify';
import type { AgentConfig, ConfigFile, Settings } from './config/agent-config.ts';
import type { AuthSettings } from './config/auth-settings.ts';
import type { JsonFile } from './config/json-file.ts';
import type { CloudLink } from './http/caller.ts';
import type { SessionRegistry } from './http/sessions.ts';
import type { AccessReviewer } from './kube/access-review.ts';
import type { Cluster } from './kube/cluster.ts';
import type { AuditEngine } from './scope/audit/engine.ts';
import type { AgentOidc } from './scope/auth/oidc-service.ts';
import type { ClusterConnection } from './scope/connection.ts';
import type { ClusterHistory } from './scope/history/cluster-history.ts';
import type { MetricsAvailability } from './scope/metrics/api.ts';
import type { MetricsPoller } from './scope/metrics/poller.ts';
import type { ChangeRecorder } from './scope/timeline/recorder.ts';
import type { TopologyService } from './scope/topology/service.ts';

export type DeploymentMode = 'local' | 'in-cluster';

/** Everything a feature may use; passed explicitly to each feature's routes (no container, no globals). */
export interface AgentContext {
  version: string;
  startedAt: Date;
  mode: DeploymentMode;
  config: AgentConfig;
  /**
   * The kubeconfig context served and its parts. `cluster`, `timeline`, `history`, `topology`, `audit`, `metrics` and
   * `access` below are the connection's current ones: read them when used, never keep them (a switch replaces
   * them); a feature that must keep a subscription makes it through `connection.bind`.
   */
  connection: ClusterConnection;
  readonly cluster: Cluster;
  configFile: JsonFile<ConfigFile>;
  settingsFile: JsonFile<Settings>;
  readonly timeline: ChangeRecorder;
  /** Every cached object's past states inside the time-travel window (ADR 0114). */
  readonly history: ClusterHistory;
  readonly topology: TopologyService;
  /** The best-practice audit over the cache, remembering each object's findings until it or its namespace changes. */
  readonly audit: AuditEngine;
  sessions: SessionRegistry;
  /** metrics.k8s.io: whether it is served, and the poller that keeps the usage history. */
  readonly metrics: { availability: MetricsAvailability; poller: MetricsPoller };
  /** SubjectAccessReviews for tunneled callers. */
  readonly access: AccessReviewer;
  /** Cloud mode: the hub this agent dials and the cluster id the hub gave it. */
  cloud?: CloudLink;
  /** `--auth-mode proxy|oidc`: how people sign in to the agent itself (undefined: mode none, or cloud mode). */
  auth?: { settings: AuthSettings; oidc?: AgentOidc };
  log: FastifyBaseLogger;
}

/** The fastify instance with TypeBox types on every route. */
export type App = TypedApp;
