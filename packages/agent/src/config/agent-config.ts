import { homedir } from 'node:os';
import { join } from 'node:path';
import { sizePattern } from '@binnacle/common';
import { Duration } from '@binnacle/common/server';
import { type Static, Type } from 'typebox';
import { NamespaceParam } from '../http/schemas.ts';
import { type AuthConfig, AuthConfigFields, authDefaults } from './auth-config.ts';

export const defaultCatalogUrl = 'https://artifacthub.io';
export const defaultReleaseFeed = 'https://api.github.com/repos/binnacle-dev/binnacle/releases/latest';
export const defaultRepohostApiUrl = 'https://api.github.com';

/**
 * What `~/.binnacle/config.json` may hold — the persistent form of the agent's flags. Flags and BINNACLE_*
 * variables override it; `PUT /api/config` replaces it (effective at the next start).
 */
export const ConfigFileSchema = Type.Object(
  {
    kubeconfig: Type.Optional(
      Type.String({ minLength: 1, description: 'Path to a kubeconfig file (or a colon-separated list)' }),
    ),
    context: Type.Optional(Type.String({ minLength: 1, description: 'Kubeconfig context to use' })),
    namespace: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 3200,
        description: 'Watch only these namespaces (comma-separated)',
      }),
    ),
    port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, description: 'Port of the API and UI' })),
    listenAddress: Type.Optional(Type.String({ minLength: 1, description: 'Address to listen on' })),
    noBrowser: Type.Optional(Type.Boolean({ description: 'Do not open a browser at start' })),
    debugEvents: Type.Optional(Type.Boolean({ description: 'Log every request' })),
    releaseFeedUrl: Type.Optional(
      Type.String({ pattern: '^https?://', description: 'Where version-check looks for the latest release' }),
    ),
    timelineStorage: Type.Optional(
      Type.Enum(['memory', 'sqlite'], { description: 'Where the change timeline is kept' }),
    ),
    timelineDb: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'SQLite file of the timeline (default <data-dir>/timeline.db)',
      }),
    ),
    historyLimit: Type.Optional(
      Type.Integer({ minimum: 100, maximum: 1_000_000, description: 'Entries the in-memory timeline keeps' }),
    ),
    timelineRetention: Type.Optional(
      Duration({
        description: 'How long the SQLite timeline keeps entries, e.g. 168h',
      }),
    ),
    helmBinary: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'The helm binary for release changes (default: helm on PATH)',
      }),
    ),
    helmRepositories: Type.Optional(
      Type.String({
        description:
          'Chart repositories, comma-separated NAME=URL: http(s):// for a classic repository, oci:// for a registry',
      }),
    ),
    repohostApiUrl: Type.Optional(
      Type.String({
        pattern: '^https?://',
        description: `Base URL of the code host API the star prompt calls (default ${defaultRepohostApiUrl})`,
      }),
    ),
    catalogUrl: Type.Optional(
      Type.String({
        pattern: '^https?://',
        description: `Base URL of the Artifact Hub-compatible chart catalog (default ${defaultCatalogUrl})`,
      }),
    ),
    debugImage: Type.Optional(
      Type.String({ minLength: 1, maxLength: 512, description: 'Image of ephemeral debug containers' }),
    ),
    disableLocalTerminal: Type.Optional(
      Type.Boolean({ description: 'Refuse /api/local-terminal even in local mode' }),
    ),
    noMcp: Type.Optional(Type.Boolean({ description: 'Serve no MCP endpoint (/mcp)' })),
    mcpReadOnly: Type.Optional(Type.Boolean({ description: 'Offer only the MCP tools that read' })),
    maxEventStreams: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 10_000,
        description: 'Concurrent event-stream clients before 503',
      }),
    ),
    topologyMaxNodes: Type.Optional(
      Type.Integer({
        minimum: 10,
        maximum: 100_000,
        description:
          'Nodes a whole-cluster topology may have: above, it is reduced to pod groups, kind counts or namespaces',
      }),
    ),
    metricsPollInterval: Type.Optional(
      Duration({ description: 'How often the CPU and memory history polls metrics.k8s.io, e.g. 30s' }),
    ),
    metricsHistory: Type.Optional(
      Type.Integer({
        minimum: 2,
        maximum: 10_000,
        description: 'Samples the history keeps per pod and node',
      }),
    ),
    hubbleAddress: Type.Optional(
      Type.String({
        pattern: '^[^\\s/]+:[0-9]{1,5}$',
        description: 'host:port of a Hubble relay, instead of finding the hubble-relay Service',
      }),
    ),
    timelineMaxSize: Type.Optional(
      Type.String({
        pattern: sizePattern,
        description: 'Size cap of the SQLite timeline, e.g. 512Mi',
      }),
    ),
    timeTravelWindow: Type.Optional(
      Duration({ description: 'How far back the cluster can be seen as it was, e.g. 24h' }),
    ),
    timeTravelMaxSize: Type.Optional(
      Type.String({
        pattern: sizePattern,
        description: "Size cap of the objects' past states kept in memory (as JSON), e.g. 64Mi",
      }),
    ),
    timeTravelConfigMapValues: Type.Optional(
      Type.Boolean({ description: "Keep ConfigMap values in the objects' past states, not only their keys" }),
    ),
    metricsdbUrl: Type.Optional(
      Type.String({
        pattern: '^https?://',
        description:
          "Base URL of the Prometheus-compatible metrics store (default: found among the cluster's Services)",
      }),
    ),
    metricsdbHeaders: Type.Optional(
      Type.String({ description: 'Headers sent to the metrics store, comma-separated NAME=VALUE' }),
    ),
    metricsdbTimeout: Type.Optional(
      Duration({ description: 'Longest wait for one metrics store query, e.g. 30s' }),
    ),
    imageCacheDir: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'Where image layers are cached (default <data-dir>/image-cache)',
      }),
    ),
    imageCacheMaxSize: Type.Optional(
      Type.String({ pattern: sizePattern, description: 'Size cap of the image layer cache, e.g. 4Gi' }),
    ),
    imageFileMaxSize: Type.Optional(
      Type.String({
        pattern: sizePattern,
        description: 'Largest image file /api/images/file serves, e.g. 50Mi',
      }),
    ),
    ...AuthConfigFields,
  },
  { additionalProperties: false },
);
export type ConfigFile = Static<typeof ConfigFileSchema>;

/** The configuration the agent runs with, after flags > env > file > defaults. */
export interface AgentConfig extends AuthConfig {
  kubeconfig?: string;
  context?: string;
  namespace?: string;
  port: number;
  listenAddress: string;
  noBrowser: boolean;
  debugEvents: boolean;
  releaseFeedUrl: string;
  dataDir: string;
  timelineStorage: 'memory' | 'sqlite';
  timelineDb?: string;
  historyLimit: number;
  /** Milliseconds (parsed from the hours form at load). */
  timelineRetentionMs: number;
  /** Bytes (parsed from a quantity at load). */
  timelineMaxBytes: number;
  /** Milliseconds: how far back objects' states are kept (time travel). */
  timeTravelWindowMs: number;
  /** Bytes of past object states kept, as JSON. */
  timeTravelMaxBytes: number;
  timeTravelConfigMapValues: boolean;
  maxEventStreams: number;
  topologyMaxNodes: number;
  /** Milliseconds between polls of metrics.k8s.io for the history. */
  metricsPollMs: number;
  /** Samples kept per pod (container) and node. */
  metricsHistory: number;
  /** The helm binary for install, upgrade, rollback and uninstall (undefined: `helm` on PATH). */
  helmBinary?: string;
  /** Chart repositories as given (`NAME=URL,…`); parsed and checked when the agent is built. */
  helmRepositories?: string;
  /** Base URL of the Artifact Hub-compatible catalog the chart search asks. */
  catalogUrl: string;
  repohostApiUrl: string;
  debugImage: string;
  disableLocalTerminal: boolean;
  /** No `/mcp` at all. */
  noMcp: boolean;
  /** `/mcp` lists no tool that changes the cluster. */
  mcpReadOnly: boolean;
  /** `host:port` of a Hubble relay; undefined: the hubble-relay Service (by DNS or a port-forward). */
  hubbleAddress?: string;
  /** The metrics store to read (undefined: discover one among the cluster's Services). */
  metricsdbUrl?: string;
  /** Headers for it as given (`NAME=VALUE,…`); parsed when the metrics store feature starts. */
  metricsdbHeaders?: string;
  /** Milliseconds one metrics store query may take (and the cap of a query's own `timeout`). */
  metricsdbTimeoutMs: number;
  /** Where image layers are cached (undefined: `<dataDir>/image-cache`). */
  imageCacheDir?: string;
  /** Bytes the image layer cache keeps at most (least recently used layers go first). */
  imageCacheMaxBytes: number;
  /** Bytes of the largest image file served. */
  imageFileMaxBytes: number;
  /** Cloud mode: the hub's URL and this cluster's token (`bnc_…`). */
  cloudUrl?: string;
  clusterToken?: string;
  /** The agent's own Deployment, which `POST /api/agent/self-upgrade` re-applies (both unset: not offered). */
  selfUpgradeNamespace?: string;
  selfUpgradeDeployment?: string;
  /** `binnacle desktop`: the /api/desktop/* helpers act (open, save, update); otherwise they answer as no-ops. */
  desktop: boolean;
  /** Desktop: where save-file writes (undefined: XDG_DOWNLOAD_DIR, ~/.config/user-dirs.dirs, else ~/Downloads). */
  downloadsDir?: string;
  /** Desktop: the release manifest the updater reads (undefined: no updates). */
  updateUrl?: string;
  /**
   * Desktop: the executable an update replaces. Undefined: the running single executable, if it is one. Set only
   * by tests and embedders; no flag, so a misconfigured start cannot overwrite some other file.
   */
  desktopExecutablePath?: string;
}

/** Whether the agent knows its own Deployment, as the chart's rbac.selfUpgrade tells it (MY_POD_NAMESPACE, MY_DEPLOYMENT_NAME). */
export const selfUpgradeConfigured = (
  config: Pick<AgentConfig, 'selfUpgradeNamespace' | 'selfUpgradeDeployment'>,
): boolean => Boolean(config.selfUpgradeNamespace && config.selfUpgradeDeployment);

export const configDefaults = (): Omit<
  AgentConfig,
  | 'kubeconfig'
  | 'context'
  | 'namespace'
  | 'timelineDb'
  | 'cloudUrl'
  | 'clusterToken'
  | 'helmRepositories'
  | 'hubbleAddress'
  | 'imageCacheDir'
  | 'selfUpgradeNamespace'
  | 'selfUpgradeDeployment'
  | 'downloadsDir'
  | 'updateUrl'
  | 'desktopExecutablePath'
  | keyof Omit<AuthConfig, keyof typeof authDefaults>
> => ({
  ...authDefaults,
  timelineStorage: 'memory',
  historyLimit: 10_000,
  timelineRetentionMs: 168 * 3_600_000,
  timelineMaxBytes: 512 * 1024 * 1024,
  timeTravelWindowMs: 24 * 3_600_000,
  timeTravelMaxBytes: 64 * 1024 * 1024,
  timeTravelConfigMapValues: false,
  maxEventStreams: 200,
  topologyMaxNodes: 2000,
  metricsPollMs: 30_000,
  metricsHistory: 120,
  metricsdbTimeoutMs: 30_000,
  imageCacheMaxBytes: 4 * 1024 ** 3,
  imageFileMaxBytes: 50 * 1024 ** 2,
  debugImage: 'busybox:1.37',
  catalogUrl: defaultCatalogUrl,
  repohostApiUrl: defaultRepohostApiUrl,
  disableLocalTerminal: false,
  desktop: false,
  noMcp: false,
  mcpReadOnly: false,
  port: 9280,
  listenAddress: '127.0.0.1',
  noBrowser: false,
  debugEvents: false,
  releaseFeedUrl: defaultReleaseFeed,
  dataDir: join(homedir(), '.binnacle'),
});

export const configFilePath = (dataDir: string) => join(dataDir, 'config.json');
export const settingsFilePath = (dataDir: string) => join(dataDir, 'settings.json');

export const AuditSettingsSchema = Type.Object(
  {
    ignoredNamespaces: Type.Array(NamespaceParam, { maxItems: 1000 }),
    disabledChecks: Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { maxItems: 1000 }),
    severityOverrides: Type.Optional(
      Type.Record(
        Type.String({ minLength: 1, maxLength: 128 }),
        Type.Union([Type.Literal('warning'), Type.Literal('danger')]),
        {
          description: "a check's severity instead of its default, by check id",
          maxProperties: 1000,
        },
      ),
    ),
  },
  { additionalProperties: false },
);
export type AuditSettings = Static<typeof AuditSettingsSchema>;

export const SettingsSchema = Type.Object(
  {
    theme: Type.Optional(Type.Enum(['light', 'dark', 'system'], { description: 'UI theme' })),
    pinnedKinds: Type.Optional(
      Type.Array(
        Type.Object(
          {
            kind: Type.String({ minLength: 1 }),
            group: Type.String({ description: 'API group, "" for core' }),
          },
          { additionalProperties: false },
        ),
        { maxItems: 100, description: 'Kinds pinned in the sidebar' },
      ),
    ),
    audit: Type.Optional(AuditSettingsSchema),
  },
  { additionalProperties: false },
);

export type Settings = Static<typeof SettingsSchema>;
