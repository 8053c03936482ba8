import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseDuration, parseSize } from '@binnacle/common';
import { type AgentConfig, type ConfigFile, configDefaults } from '../config/agent-config.ts';

export class UsageError extends Error {}

type OptionType =
  | 'string'
  | 'boolean'
  | 'port'
  | 'url'
  | 'path'
  | 'integer'
  | 'duration'
  | 'size'
  | 'storage';

interface OptionSpec {
  flag: string;
  key: keyof AgentConfig;
  /** The config.json field, when it differs from `key` (e.g. `timelineRetention` in hours form). */
  fileKey?: keyof ConfigFile;
  env: string;
  type: OptionType;
  /** Bounds of an integer option. */
  range?: [number, number];
  placeholder?: string;
  help: string;
}

/** Every flag of `binnacle agent`, its BINNACLE_* variable and its config-file key: one table, one truth. */
export const agentOptions: OptionSpec[] = [
  {
    flag: 'port',
    key: 'port',
    env: 'BINNACLE_PORT',
    type: 'port',
    placeholder: 'N',
    help: 'port of the API and UI (default 9280)',
  },
  {
    flag: 'listen-address',
    key: 'listenAddress',
    env: 'BINNACLE_LISTEN_ADDRESS',
    type: 'string',
    placeholder: 'ADDR',
    help: 'address to listen on (default 127.0.0.1; use 0.0.0.0 to serve other hosts)',
  },
  {
    flag: 'kubeconfig',
    key: 'kubeconfig',
    env: 'BINNACLE_KUBECONFIG',
    type: 'string',
    placeholder: 'PATH',
    help: 'kubeconfig file(s), colon-separated (default: KUBECONFIG, ~/.kube/config, then the in-cluster service account)',
  },
  {
    flag: 'context',
    key: 'context',
    env: 'BINNACLE_CONTEXT',
    type: 'string',
    placeholder: 'NAME',
    help: 'kubeconfig context (default: the current context)',
  },
  {
    flag: 'namespace',
    key: 'namespace',
    env: 'BINNACLE_NAMESPACE',
    type: 'string',
    placeholder: 'NAME',
    help: 'watch only this namespace (for identities without cluster-wide list rights)',
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
    help: 'where config.json and settings.json live (default ~/.binnacle)',
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
    type: 'storage',
    placeholder: 'memory|sqlite',
    help: 'where the change timeline is kept (default memory)',
  },
  {
    flag: 'timeline-db',
    key: 'timelineDb',
    env: 'BINNACLE_TIMELINE_DB',
    type: 'path',
    placeholder: 'PATH',
    help: 'SQLite file of the timeline (default <data-dir>/timeline.db)',
  },
  {
    flag: 'history-limit',
    key: 'historyLimit',
    env: 'BINNACLE_HISTORY_LIMIT',
    type: 'integer',
    range: [100, 1_000_000],
    placeholder: 'N',
    help: 'entries the in-memory timeline keeps (default 10000)',
  },
  {
    flag: 'timeline-retention',
    key: 'timelineRetentionMs',
    fileKey: 'timelineRetention',
    env: 'BINNACLE_TIMELINE_RETENTION',
    type: 'duration',
    placeholder: 'DURATION',
    help: 'how long the SQLite timeline keeps entries (default 168h)',
  },
  {
    flag: 'timeline-max-size',
    key: 'timelineMaxBytes',
    fileKey: 'timelineMaxSize',
    env: 'BINNACLE_TIMELINE_MAX_SIZE',
    type: 'size',
    placeholder: 'SIZE',
    help: 'size cap of the SQLite timeline (default 512Mi)',
  },
  {
    flag: 'debug-image',
    key: 'debugImage',
    env: 'BINNACLE_DEBUG_IMAGE',
    type: 'string',
    placeholder: 'IMAGE',
    help: 'image of ephemeral debug containers (default busybox:1.37)',
  },
  {
    flag: 'disable-local-terminal',
    key: 'disableLocalTerminal',
    env: 'BINNACLE_DISABLE_LOCAL_TERMINAL',
    type: 'boolean',
    help: "refuse /api/local-terminal (a shell on the agent's host); it is always off in a cluster",
  },
  {
    flag: 'max-event-streams',
    key: 'maxEventStreams',
    env: 'BINNACLE_MAX_EVENT_STREAMS',
    type: 'integer',
    range: [1, 10_000],
    placeholder: 'N',
    help: 'concurrent /api/events/stream clients before 503 (default 200)',
  },
];

function convert(spec: OptionSpec, raw: string | boolean, source: string): string | number | boolean {
  if (spec.type === 'boolean') {
    if (typeof raw === 'boolean') return raw;
    if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no', ''].includes(raw.toLowerCase())) return false;
    throw new UsageError(`${source}: "${raw}" is not a boolean (true or false)`);
  }
  const text = String(raw);
  if (text === '') throw new UsageError(`${source} needs a value`);
  if (spec.type === 'port') {
    const port = Number(text);
    if (!Number.isInteger(port) || port < 1 || port > 65535)
      throw new UsageError(`${source}: "${text}" is not a port number (1-65535)`);
    return port;
  }
  if (spec.type === 'url' && !/^https?:\/\/[^\s]+$/.test(text))
    throw new UsageError(`${source}: "${text}" is not an http(s) URL`);
  if (spec.type === 'path') return resolve(text);
  if (spec.type === 'integer') {
    const [min, max] = spec.range ?? [0, Number.MAX_SAFE_INTEGER];
    const value = Number(text);
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new UsageError(`${source}: "${text}" is not a whole number from ${min} to ${max}`);
    }
    return value;
  }
  if (spec.type === 'storage') {
    if (text !== 'memory' && text !== 'sqlite')
      throw new UsageError(`${source}: "${text}" is not memory or sqlite`);
    return text;
  }
  try {
    if (spec.type === 'duration') return parseDuration(text, source);
    if (spec.type === 'size') return parseSize(text, source);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return text;
}

export interface ParsedArgs {
  help: boolean;
  /** Values given as flags or BINNACLE_* variables (they override the config file). */
  overrides: Partial<AgentConfig>;
}

/** Parses flags strictly (an unknown flag or a bad value is a UsageError naming it) and reads BINNACLE_* variables. */
export function parseAgentArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): ParsedArgs {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        help: { type: 'boolean', short: 'h' },
        ...Object.fromEntries(
          agentOptions.map((o) => [o.flag, { type: o.type === 'boolean' ? 'boolean' : 'string' }]),
        ),
      },
    });
  } catch (error) {
    throw new UsageError(
      (error as Error).message.replace(/\. To specify.*$/s, '').replace(/^Unknown option/, 'unknown flag'),
    );
  }
  const overrides: Partial<AgentConfig> = {};
  for (const spec of agentOptions) {
    const fromEnv = env[spec.env];
    if (fromEnv !== undefined) Object.assign(overrides, { [spec.key]: convert(spec, fromEnv, spec.env) });
    const fromFlag = parsed.values[spec.flag];
    if (fromFlag !== undefined)
      Object.assign(overrides, { [spec.key]: convert(spec, fromFlag as string | boolean, `--${spec.flag}`) });
  }
  return { help: Boolean(parsed.values.help), overrides };
}

/** flags > BINNACLE_* env > config file > defaults. */
export function effectiveConfig(overrides: Partial<AgentConfig>, file: ConfigFile): AgentConfig {
  const fromFile: Partial<AgentConfig> = {};
  for (const spec of agentOptions) {
    const fileKey = spec.fileKey ?? (spec.key as keyof ConfigFile);
    const value = file[fileKey];
    if (value === undefined) continue;
    // Strings go through the same conversion as flags (durations, sizes, paths); numbers and booleans are typed already.
    const converted = typeof value === 'string' ? convert(spec, value, `config.json ${fileKey}`) : value;
    Object.assign(fromFile, { [spec.key]: converted });
  }
  const defined = <T extends object>(o: T) =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  return { ...configDefaults(), ...defined(fromFile), ...defined(overrides) } as AgentConfig;
}

export function agentHelp(): string {
  const rows = agentOptions.map((o) => {
    const left = `  --${o.flag}${o.placeholder ? ` ${o.placeholder}` : ''}`;
    return `${left.padEnd(30)} ${o.help}\n${''.padEnd(31)}env ${o.env}`;
  });
  return `usage: binnacle agent [flags]

Serves the Binnacle API and UI for one Kubernetes cluster on http://<listen-address>:<port>.
Settings come from flags, then BINNACLE_* variables, then <data-dir>/config.json.

flags:
${rows.join('\n')}
  -h, --help                   show this help

docs: docs/agent.md
`;
}
