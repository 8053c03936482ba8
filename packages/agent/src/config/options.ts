import { type OptionSpec, optionsHelp, parseOptions, resolveOptions } from '@binnacle/common/server';
import { type AgentConfig, type ConfigFile, configDefaults } from './agent-config.ts';
import { authOptions } from './auth-config.ts';
import { settingChecks } from './setting-checks.ts';

/** Every flag of `binnacle agent`, its BINNACLE_* variable and its config-file key: one table, one truth. */
export const agentOptions: OptionSpec<AgentConfig>[] = [
  {
    flag: 'port',
    key: 'port',
    env: 'BINNACLE_PORT',
    type: 'port',
    placeholder: 'N',
    help: 'port of the API and UI',
  },
  {
    flag: 'listen-address',
    key: 'listenAddress',
    env: 'BINNACLE_LISTEN_ADDRESS',
    type: 'string',
    placeholder: 'ADDR',
    help: 'address to listen on; 0.0.0.0 serves other hosts',
    check: settingChecks.listenAddress,
  },
  {
    flag: 'kubeconfig',
    key: 'kubeconfig',
    env: 'BINNACLE_KUBECONFIG',
    type: 'string',
    placeholder: 'PATH',
    help: 'kubeconfig file(s), colon-separated',
    defaultText: 'KUBECONFIG, ~/.kube/config, then the in-cluster service account',
  },
  {
    flag: 'context',
    key: 'context',
    env: 'BINNACLE_CONTEXT',
    type: 'string',
    placeholder: 'NAME',
    help: 'kubeconfig context',
    defaultText: 'the current context',
  },
  {
    flag: 'namespace',
    key: 'namespace',
    env: 'BINNACLE_NAMESPACE',
    type: 'string',
    placeholder: 'NAME',
    help: 'watch only this namespace (for identities without cluster-wide list rights)',
    defaultText: 'all namespaces',
    check: settingChecks.namespace,
  },
  {
    flag: 'no-browser',
    key: 'noBrowser',
    env: 'BINNACLE_NO_BROWSER',
    type: 'boolean',
    help: 'do not open a browser at start (never opened without a TTY)',
  },
  {
    flag: 'debug-events',
    key: 'debugEvents',
    env: 'BINNACLE_DEBUG_EVENTS',
    type: 'boolean',
    help: 'log every request with its status and duration',
  },
  {
    flag: 'data-dir',
    key: 'dataDir',
    env: 'BINNACLE_DATA_DIR',
    type: 'path',
    placeholder: 'DIR',
    help: 'where config.json and settings.json live',
  },
  {
    flag: 'release-feed-url',
    key: 'releaseFeedUrl',
    env: 'BINNACLE_RELEASE_FEED_URL',
    type: 'url',
    placeholder: 'URL',
    help: 'release feed for /api/version-check',
  },
  {
    flag: 'timeline-storage',
    key: 'timelineStorage',
    env: 'BINNACLE_TIMELINE_STORAGE',
    type: 'enum',
    values: ['memory', 'sqlite'],
    placeholder: 'memory|sqlite',
    help: 'where the change timeline is kept',
  },
  {
    flag: 'timeline-db',
    key: 'timelineDb',
    env: 'BINNACLE_TIMELINE_DB',
    type: 'path',
    placeholder: 'PATH',
    help: 'SQLite file of the timeline',
    defaultText: '<data-dir>/timeline.db',
  },
  {
    flag: 'history-limit',
    key: 'historyLimit',
    env: 'BINNACLE_HISTORY_LIMIT',
    type: 'integer',
    range: [100, 1_000_000],
    placeholder: 'N',
    help: 'entries the in-memory timeline keeps',
  },
  {
    flag: 'timeline-retention',
    key: 'timelineRetentionMs',
    fileKey: 'timelineRetention',
    env: 'BINNACLE_TIMELINE_RETENTION',
    type: 'duration',
    placeholder: 'DURATION',
    help: 'how long the SQLite timeline keeps entries',
  },
  {
    flag: 'timeline-max-size',
    key: 'timelineMaxBytes',
    fileKey: 'timelineMaxSize',
    env: 'BINNACLE_TIMELINE_MAX_SIZE',
    type: 'size',
    placeholder: 'SIZE',
    help: 'size cap of the SQLite timeline, its WAL and shm files included',
  },
  {
    flag: 'helm-binary',
    key: 'helmBinary',
    env: 'BINNACLE_HELM_BINARY',
    type: 'path',
    placeholder: 'PATH',
    help: 'the helm binary that installs, upgrades, rolls back and uninstalls releases',
    defaultText: 'helm on PATH',
  },
  {
    flag: 'helm-repositories',
    key: 'helmRepositories',
    env: 'BINNACLE_HELM_REPOSITORIES',
    type: 'string',
    placeholder: 'NAME=URL,…',
    help: 'chart repositories: http(s):// for a classic one (index.yaml), oci:// for a registry',
    defaultText: 'none',
    check: settingChecks.helmRepositories,
  },
  {
    flag: 'catalog-url',
    key: 'catalogUrl',
    env: 'BINNACLE_CATALOG_URL',
    type: 'url',
    placeholder: 'URL',
    help: 'Artifact Hub-compatible chart catalog the chart search asks',
  },
  {
    flag: 'repohost-api-url',
    key: 'repohostApiUrl',
    env: 'BINNACLE_REPOHOST_API_URL',
    type: 'url',
    placeholder: 'URL',
    help: 'code host API the "star the project" prompt calls',
  },
  {
    flag: 'debug-image',
    key: 'debugImage',
    env: 'BINNACLE_DEBUG_IMAGE',
    type: 'string',
    placeholder: 'IMAGE',
    help: 'image of ephemeral debug containers',
    check: settingChecks.image,
  },
  {
    flag: 'disable-local-terminal',
    key: 'disableLocalTerminal',
    env: 'BINNACLE_DISABLE_LOCAL_TERMINAL',
    type: 'boolean',
    help: "refuse /api/local-terminal (a shell on the agent's host); it is always off in a cluster",
  },
  {
    flag: 'no-mcp',
    key: 'noMcp',
    env: 'BINNACLE_NO_MCP',
    type: 'boolean',
    help: 'serve no MCP endpoint (/mcp) for AI assistants',
  },
  {
    flag: 'mcp-read-only',
    key: 'mcpReadOnly',
    env: 'BINNACLE_MCP_READ_ONLY',
    type: 'boolean',
    help: 'offer AI assistants only the MCP tools that read, none that change the cluster',
  },
  {
    flag: 'max-event-streams',
    key: 'maxEventStreams',
    env: 'BINNACLE_MAX_EVENT_STREAMS',
    type: 'integer',
    range: [1, 10_000],
    placeholder: 'N',
    help: 'concurrent /api/events/stream clients before 503',
  },
  {
    flag: 'topology-max-nodes',
    key: 'topologyMaxNodes',
    env: 'BINNACLE_TOPOLOGY_MAX_NODES',
    type: 'integer',
    range: [10, 100_000],
    placeholder: 'N',
    help: 'a whole-cluster topology larger than this after grouping is reduced to fit: pod groups, then kind counts, then one node per namespace',
  },
  {
    flag: 'metrics-poll-interval',
    key: 'metricsPollMs',
    fileKey: 'metricsPollInterval',
    env: 'BINNACLE_METRICS_POLL_INTERVAL',
    type: 'duration',
    range: [1000, 3_600_000],
    placeholder: 'DURATION',
    help: 'how often the CPU and memory history polls metrics.k8s.io, 1s to 1h',
  },
  {
    flag: 'metrics-history',
    key: 'metricsHistory',
    env: 'BINNACLE_METRICS_HISTORY',
    type: 'integer',
    range: [2, 10_000],
    placeholder: 'N',
    help: 'samples of CPU and memory kept per pod container and node',
  },
  {
    flag: 'hubble-address',
    key: 'hubbleAddress',
    env: 'BINNACLE_HUBBLE_ADDRESS',
    type: 'string',
    placeholder: 'HOST:PORT',
    help: 'Hubble relay for traffic flows',
    defaultText: 'the hubble-relay Service, by in-cluster DNS or a port-forward',
    check: settingChecks.hostPort,
  },
  {
    flag: 'metricsdb-url',
    key: 'metricsdbUrl',
    env: 'BINNACLE_METRICSDB_URL',
    type: 'url',
    placeholder: 'URL',
    help: 'Prometheus-compatible metrics store to read',
    defaultText: "found among the cluster's Services",
  },
  {
    flag: 'metricsdb-headers',
    key: 'metricsdbHeaders',
    env: 'BINNACLE_METRICSDB_HEADERS',
    type: 'string',
    placeholder: 'NAME=VALUE,…',
    help: 'headers sent to the metrics store of --metricsdb-url, e.g. Authorization=Bearer …; prefer the variable',
    secret: true,
    check: settingChecks.headerList,
  },
  {
    flag: 'metricsdb-timeout',
    key: 'metricsdbTimeoutMs',
    fileKey: 'metricsdbTimeout',
    env: 'BINNACLE_METRICSDB_TIMEOUT',
    type: 'duration',
    range: [1000, 300_000],
    placeholder: 'DURATION',
    help: 'longest wait for one metrics store query, 1s to 5m',
  },
  {
    flag: 'image-cache-dir',
    key: 'imageCacheDir',
    env: 'BINNACLE_IMAGE_CACHE_DIR',
    type: 'path',
    placeholder: 'DIR',
    help: 'where image layers read by /api/images/* are cached',
    defaultText: '<data-dir>/image-cache',
  },
  {
    flag: 'image-cache-max-size',
    key: 'imageCacheMaxBytes',
    fileKey: 'imageCacheMaxSize',
    env: 'BINNACLE_IMAGE_CACHE_MAX_SIZE',
    type: 'size',
    placeholder: 'SIZE',
    help: 'size cap of the image layer cache; least recently used layers go first',
  },
  {
    flag: 'image-file-max-size',
    key: 'imageFileMaxBytes',
    fileKey: 'imageFileMaxSize',
    env: 'BINNACLE_IMAGE_FILE_MAX_SIZE',
    type: 'size',
    placeholder: 'SIZE',
    help: 'largest image file /api/images/file serves; larger ones answer 413',
  },
  {
    flag: 'cloud-url',
    key: 'cloudUrl',
    env: 'BINNACLE_CLOUD_URL',
    type: 'url',
    placeholder: 'URL',
    help: 'cloud mode: dial this hub and serve through its tunnel (needs --cluster-token)',
  },
  {
    flag: 'cluster-token',
    key: 'clusterToken',
    env: 'BINNACLE_CLUSTER_TOKEN',
    type: 'string',
    placeholder: 'TOKEN',
    help: "cloud mode: this cluster's token (bnc_…) from the hub; prefer the variable",
    secret: true,
  },
  // The chart's rbac.selfUpgrade sets these variables; their names are what the chart's downward API gives.
  {
    flag: 'self-upgrade-namespace',
    key: 'selfUpgradeNamespace',
    env: 'MY_POD_NAMESPACE',
    type: 'string',
    placeholder: 'NAME',
    help: "in-cluster: the namespace of the agent's own Deployment, for POST /api/agent/self-upgrade",
    check: settingChecks.namespace,
  },
  {
    flag: 'self-upgrade-deployment',
    key: 'selfUpgradeDeployment',
    env: 'MY_DEPLOYMENT_NAME',
    type: 'string',
    placeholder: 'NAME',
    help: "in-cluster: the agent's own Deployment (from charts/binnacle-agent), for POST /api/agent/self-upgrade",
    check: settingChecks.objectName,
  },
  ...authOptions,
];

/** `binnacle desktop`: the agent's flags and the desktop helpers' own. */
export const desktopOptions: OptionSpec<AgentConfig>[] = [
  ...agentOptions,
  {
    flag: 'downloads-dir',
    key: 'downloadsDir',
    env: 'BINNACLE_DOWNLOADS_DIR',
    type: 'path',
    placeholder: 'DIR',
    help: 'where saved files go',
    defaultText: 'XDG_DOWNLOAD_DIR, ~/.config/user-dirs.dirs, else ~/Downloads',
  },
  {
    flag: 'update-url',
    key: 'updateUrl',
    env: 'BINNACLE_UPDATE_URL',
    type: 'url',
    placeholder: 'URL',
    help: 'release manifest the desktop updater reads',
    defaultText: 'none, updates off',
  },
];

/** The flags whose values are credentials. */
export const secretAgentFlags: ReadonlySet<string> = new Set(
  agentOptions.filter((option) => option.secret).map((option) => option.flag),
);

export function parseAgentArgs(argv: string[], env: NodeJS.ProcessEnv = process.env) {
  return parseOptions(agentOptions, argv, env);
}

export function parseDesktopArgs(argv: string[], env: NodeJS.ProcessEnv = process.env) {
  const parsed = parseOptions(desktopOptions, argv, env);
  return { ...parsed, overrides: { ...parsed.overrides, desktop: true } };
}

export function effectiveConfig(overrides: Partial<AgentConfig>, file: ConfigFile): AgentConfig {
  return resolveOptions(agentOptions, overrides, file, configDefaults(), 'config.json');
}

export function agentHelp(): string {
  return `usage: binnacle agent [flags]

Serves the Binnacle API and UI for one Kubernetes cluster on http://<listen-address>:<port>.
Settings come from flags, then BINNACLE_* variables, then <data-dir>/config.json.

flags:
${optionsHelp(agentOptions, configDefaults())}

docs: docs/agent.md, docs/agent-auth.md (sign-in: --auth-mode)
`;
}

export function desktopHelp(): string {
  return `usage: binnacle desktop [flags]

Runs the agent for this machine's desktop: the UI on loopback only, in your browser, with the desktop
helpers on (opening links and saved files, saving downloads, updating the binary). No --cloud-url.
Settings come from flags, then BINNACLE_* variables, then <data-dir>/config.json.

flags:
${optionsHelp(desktopOptions, configDefaults())}

docs: docs/desktop.md, docs/agent.md
`;
}
