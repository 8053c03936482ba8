import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { formatDuration, parseDuration } from '@binnacle/common';
import { type OptionSpec, parseOptions, resolveOptions, UsageError } from '@binnacle/common/server';
import { parse as parseYaml } from 'yaml';
import { type BillingSettings, billingDefaults, billingOptions, validateBilling } from './billing-config.ts';
import {
  type OidcSettings,
  oidcClientSecretEnv,
  oidcDefaults,
  oidcOptions,
  validateOidc,
} from './oidc-config.ts';
import { decodeKey, secretFile } from './secret-key.ts';

/** The hub's settings after flags > BINNACLE_* env > config file > defaults, checked at boot. */
export interface HubConfig extends OidcSettings, BillingSettings {
  port: number;
  listenAddress: string;
  /** The hub's public base URL (cookies, same-origin checks, redirect URIs). */
  publicUrl: string;
  dataDir: string;
  /** postgres://… ; SQLite under the data dir when left out. */
  databaseUrl?: string;
  /** redis:// or rediss://; when set, this process is one of several replicas sharing PostgreSQL and this Redis. */
  redisUrl?: string;
  /**
   * http://host:port at which the other replicas reach this process directly (not through the load balancer): its
   * replica port, a second listener on listenAddress beside `port`.
   */
  replicaUrl?: string;
  /** Absolute session lifetime (ms). */
  sessionLifetimeMs: number;
  /** Inactivity window (ms); at least 20 minutes. */
  maxInactiveMs: number;
  breakGlassEmail?: string;
  breakGlassPassword?: string;
  breakGlassPasswordFile?: string;
  /** Key for HMACs and encryption at rest (hex or base64, 32 bytes or more). */
  secretKey?: string;
  secretKeyFile?: string;
  debugRequests: boolean;
  /** YAML file with any of these settings (keys as in docs/hub.md). */
  configFile?: string;
}

export const hubDefaults = (): Partial<HubConfig> => ({
  port: 9380,
  listenAddress: '127.0.0.1',
  dataDir: join(homedir(), '.binnacle-hub'),
  sessionLifetimeMs: parseDuration('168h', 'sessionLifetime'),
  maxInactiveMs: parseDuration('24h', 'maxInactive'),
  debugRequests: false,
  ...oidcDefaults,
  ...billingDefaults,
});

export const minInactiveMs = 20 * 60_000;

/** Every setting of `binnacle hub`: flag, variable and config-file key in one table. */
export const hubOptions: OptionSpec<HubConfig>[] = [
  {
    flag: 'port',
    key: 'port',
    env: 'BINNACLE_HUB_PORT',
    type: 'port',
    placeholder: 'N',
    help: 'port to serve on (default 9380)',
  },
  {
    flag: 'listen-address',
    key: 'listenAddress',
    env: 'BINNACLE_HUB_LISTEN_ADDRESS',
    type: 'string',
    placeholder: 'ADDR',
    help: 'address to listen on (default 127.0.0.1)',
  },
  {
    flag: 'public-url',
    key: 'publicUrl',
    env: 'BINNACLE_PUBLIC_URL',
    type: 'url',
    placeholder: 'URL',
    help: 'the URL people and agents reach the hub at; https, or http://localhost for development (default http://localhost:<port>)',
  },
  {
    flag: 'data-dir',
    key: 'dataDir',
    env: 'BINNACLE_HUB_DATA_DIR',
    type: 'path',
    placeholder: 'DIR',
    help: 'where the SQLite database and a generated key live (default ~/.binnacle-hub)',
  },
  {
    flag: 'database-url',
    key: 'databaseUrl',
    env: 'BINNACLE_DATABASE_URL',
    type: 'string',
    placeholder: 'URL',
    help: 'PostgreSQL (postgres://user:pass@host/db); SQLite in the data dir when left out',
  },
  {
    flag: 'redis-url',
    key: 'redisUrl',
    env: 'BINNACLE_REDIS_URL',
    type: 'string',
    placeholder: 'URL',
    help: 'Redis (redis://[:pass@]host:port[/db] or rediss://…) shared by several hub replicas; needs PostgreSQL and a secret key',
    secret: true,
  },
  {
    flag: 'replica-url',
    key: 'replicaUrl',
    env: 'BINNACLE_REPLICA_URL',
    type: 'url',
    placeholder: 'URL',
    help: 'with --redis-url: http://host:port the other replicas reach this one at directly, on a port of its own (default http://<listen-address>:<port + 1>)',
  },
  {
    flag: 'session-lifetime',
    key: 'sessionLifetimeMs',
    fileKey: 'sessionLifetime',
    env: 'BINNACLE_SESSION_LIFETIME',
    type: 'duration',
    placeholder: 'DURATION',
    help: 'absolute lifetime of a sign-in session (default 168h)',
  },
  {
    flag: 'max-inactive',
    key: 'maxInactiveMs',
    fileKey: 'maxInactive',
    env: 'BINNACLE_MAX_INACTIVE',
    type: 'duration',
    placeholder: 'DURATION',
    help: 'a session unused this long ends (default 24h, at least 20m)',
  },
  {
    flag: 'break-glass-email',
    key: 'breakGlassEmail',
    env: 'BINNACLE_BREAK_GLASS_EMAIL',
    type: 'string',
    placeholder: 'EMAIL',
    help: 'e-mail of the break-glass admin',
  },
  {
    flag: 'break-glass-password-file',
    key: 'breakGlassPasswordFile',
    env: 'BINNACLE_BREAK_GLASS_PASSWORD_FILE',
    type: 'path',
    placeholder: 'PATH',
    help: 'file holding the break-glass password (a mounted secret); or set BINNACLE_BREAK_GLASS_PASSWORD',
  },
  {
    flag: 'secret-key-file',
    key: 'secretKeyFile',
    env: 'BINNACLE_SECRET_KEY_FILE',
    type: 'path',
    placeholder: 'PATH',
    help: 'file holding the hub key (32+ random bytes, hex or base64); or set BINNACLE_SECRET_KEY',
  },
  {
    flag: 'config',
    key: 'configFile',
    env: 'BINNACLE_HUB_CONFIG',
    type: 'path',
    placeholder: 'PATH',
    help: 'YAML file of settings (flags and variables win over it)',
  },
  {
    flag: 'debug-requests',
    key: 'debugRequests',
    env: 'BINNACLE_HUB_DEBUG_REQUESTS',
    type: 'boolean',
    help: 'log every request',
  },
  ...(oidcOptions as OptionSpec<HubConfig>[]),
  ...(billingOptions as OptionSpec<HubConfig>[]),
];

/** Settings that may only come from the environment or the config file, never from a flag (they are secrets). */
export const secretSettings = {
  breakGlassPassword: 'BINNACLE_BREAK_GLASS_PASSWORD',
  secretKey: 'BINNACLE_SECRET_KEY',
  oidcClientSecret: oidcClientSecretEnv,
} as const;

export function readConfigFile(path: string | undefined): Record<string, unknown> {
  if (!path) return {};
  if (!existsSync(path)) throw new UsageError(`config file ${path} does not exist`);
  const value = parseYaml(readFileSync(path, 'utf8')) as unknown;
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new UsageError(`config file ${path} must hold a mapping of settings`);
  const known = new Set([...hubOptions.map((o) => o.fileKey ?? o.key), ...Object.keys(secretSettings)]);
  for (const key of Object.keys(value)) {
    if (!known.has(key)) throw new UsageError(`config file ${path}: unknown setting "${key}"`);
  }
  return value as Record<string, unknown>;
}

/** Where Redis is, for log lines: the URL without its credentials. */
export function redisLocation(redisUrl: string): string {
  const url = new URL(redisUrl);
  return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
}

const wildcardAddresses = new Set(['0.0.0.0', '::', '[::]']);

/**
 * Several replicas (redisUrl set) share one PostgreSQL and one key, and reach each other directly; returns the
 * replica URL. Messages never quote the Redis URL: it may hold a password.
 */
function validateReplicas(config: HubConfig, secretKey: string | undefined): string | undefined {
  if (!config.redisUrl) {
    if (config.replicaUrl)
      throw new UsageError(
        'replicaUrl: only used with redisUrl (several replicas); set redisUrl or leave it out',
      );
    return undefined;
  }
  let redis: URL | undefined;
  try {
    redis = new URL(config.redisUrl);
  } catch {
    redis = undefined;
  }
  if (
    !redis ||
    !['redis:', 'rediss:'].includes(redis.protocol) ||
    !redis.hostname ||
    !/^\/\d*$|^$/.test(redis.pathname)
  ) {
    throw new UsageError(
      'redisUrl: not a Redis URL; write redis://[:password@]host[:port][/db] or rediss://…',
    );
  }
  if (!config.databaseUrl) {
    throw new UsageError(
      'redisUrl: several hub replicas need one shared PostgreSQL: set databaseUrl (the embedded SQLite serves one hub only)',
    );
  }
  if (!secretKey) {
    throw new UsageError(
      'redisUrl: several hub replicas need the same secretKey: set BINNACLE_SECRET_KEY or secretKeyFile (a key generated in each data dir differs per replica)',
    );
  }
  if (config.replicaUrl) return replicaOrigin(config.replicaUrl, config.port);
  if (wildcardAddresses.has(config.listenAddress)) {
    throw new UsageError(
      `replicaUrl: required with redisUrl when listenAddress is ${config.listenAddress}: set --replica-url (BINNACLE_REPLICA_URL) to the URL the other replicas reach this one at, e.g. http://<pod IP>:${config.port + 1}`,
    );
  }
  if (config.port === 65535)
    throw new UsageError(
      'replicaUrl: port 65535 leaves no port after it for the replica port: set --replica-url',
    );
  const host = config.listenAddress.includes(':') ? `[${config.listenAddress}]` : config.listenAddress;
  return `http://${host}:${config.port + 1}`;
}

/**
 * Kubernetes expands `http://$(POD_IP):9381` without brackets, so on an IPv6 pod network the URL reads
 * `http://fd00::7:9381`: the last colon then separates the port, and the address gets its brackets.
 */
function parseReplicaUrl(replicaUrl: string): URL | undefined {
  const bareIpv6 = /^http:\/\/([0-9a-f]*:[0-9a-f:.]*):(\d+)\/?$/i.exec(replicaUrl);
  const candidate = bareIpv6 ? `http://[${bareIpv6[1]}]:${bareIpv6[2]}` : replicaUrl;
  return URL.canParse(candidate) ? new URL(candidate) : undefined;
}

/** The replica port is plain HTTP/2 on a listener of its own, so the URL names that port and nothing more. */
function replicaOrigin(replicaUrl: string, hubPort: number): string {
  const url = parseReplicaUrl(replicaUrl);
  if (url?.protocol !== 'http:' || !url.port || url.pathname !== '/' || url.search) {
    throw new UsageError(
      `replicaUrl: ${replicaUrl} must be http://host:port with an explicit port and no path (the replica port speaks plain HTTP/2)`,
    );
  }
  if (Number(url.port) === hubPort) {
    throw new UsageError(
      `replicaUrl: port ${hubPort} is the hub's own port; the replica port must be another (e.g. ${hubPort + 1})`,
    );
  }
  return url.origin;
}

/**
 * The checks that stop the hub at boot, each naming the setting: inactivity below 20 minutes, a public URL
 * the session cookie cannot work with, a half-configured break-glass account, unreadable secret files, several
 * replicas without what they must share.
 */
export function validateHubConfig(config: HubConfig, env: NodeJS.ProcessEnv): HubConfig {
  if (config.maxInactiveMs < minInactiveMs) {
    throw new UsageError(`maxInactive: ${formatDuration(config.maxInactiveMs)} is below the minimum of 20m`);
  }
  if (config.sessionLifetimeMs < config.maxInactiveMs) {
    throw new UsageError(
      `sessionLifetime: ${formatDuration(config.sessionLifetimeMs)} is shorter than maxInactive (${formatDuration(config.maxInactiveMs)})`,
    );
  }
  const publicUrl = new URL(config.publicUrl ?? `http://localhost:${config.port}`);
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(publicUrl.hostname);
  if (publicUrl.protocol !== 'https:' && !local) {
    throw new UsageError(
      `publicUrl: ${publicUrl.origin} must be https (plain http only for localhost): session cookies are Secure`,
    );
  }
  if (config.databaseUrl && !/^postgres(ql)?:\/\//.test(config.databaseUrl)) {
    throw new UsageError(
      'databaseUrl: only postgres:// URLs are supported (leave it out for the embedded SQLite)',
    );
  }
  // The variable, then a password file (a flag may name it), then a password written in the config file.
  const password =
    env[secretSettings.breakGlassPassword] ??
    (config.breakGlassPasswordFile
      ? secretFile(config.breakGlassPasswordFile, 'breakGlassPasswordFile')
      : undefined) ??
    config.breakGlassPassword;
  if (config.breakGlassEmail && !password) {
    throw new UsageError(
      'breakGlassEmail is set but no password: set BINNACLE_BREAK_GLASS_PASSWORD or breakGlassPasswordFile',
    );
  }
  if (password && !config.breakGlassEmail)
    throw new UsageError('a break-glass password is set but breakGlassEmail is not');
  if (password !== undefined && password.length < 12) {
    const setting =
      env[secretSettings.breakGlassPassword] !== undefined
        ? secretSettings.breakGlassPassword
        : config.breakGlassPasswordFile !== undefined
          ? 'breakGlassPasswordFile'
          : 'breakGlassPassword';
    throw new UsageError(`${setting}: the break-glass password must be at least 12 characters`);
  }
  if (config.breakGlassEmail && !/^[^\s@]+@[^\s@]+$/.test(config.breakGlassEmail)) {
    throw new UsageError(`breakGlassEmail: "${config.breakGlassEmail}" is not an e-mail address`);
  }
  const secretKey =
    env[secretSettings.secretKey] ??
    config.secretKey ??
    (config.secretKeyFile ? secretFile(config.secretKeyFile, 'secretKeyFile') : undefined);
  const replicaUrl = validateReplicas(config, secretKey);
  if (config.databaseUrl && !secretKey) {
    throw new UsageError(
      'secretKey: with PostgreSQL every hub replica needs the same key: set BINNACLE_SECRET_KEY or secretKeyFile',
    );
  }
  // Checked at boot too, so a short key is a config error (exit 2), not a failure after opening the database.
  if (secretKey) {
    decodeKey(
      secretKey,
      env[secretSettings.secretKey] !== undefined
        ? secretSettings.secretKey
        : config.secretKey !== undefined
          ? 'secretKey'
          : 'secretKeyFile',
    );
  }
  return validateBilling(
    validateOidc(
      { ...config, publicUrl: publicUrl.origin, breakGlassPassword: password, secretKey, replicaUrl },
      env,
    ),
    env,
  );
}

/**
 * The hub's configuration from flags > BINNACLE_* env > config file > defaults, validated: a bad setting is a
 * UsageError naming it, so the process stops before serving anything.
 */
export function loadHubConfig(
  argv: string[],
  env: NodeJS.ProcessEnv,
): { help: true } | { help: false; config: HubConfig } {
  const parsed = parseOptions(hubOptions, argv, env);
  if (parsed.help) return { help: true };
  const file = readConfigFile(parsed.overrides.configFile);
  const resolved = resolveOptions(
    hubOptions,
    parsed.overrides,
    file,
    hubDefaults(),
    parsed.overrides.configFile ?? 'config',
  );
  const fromFile = (key: keyof typeof secretSettings) =>
    typeof file[key] === 'string' ? (file[key] as string) : undefined;
  return {
    help: false,
    config: validateHubConfig(
      {
        ...resolved,
        breakGlassPassword: fromFile('breakGlassPassword'),
        secretKey: fromFile('secretKey'),
        oidcClientSecret: fromFile('oidcClientSecret'),
      },
      env,
    ),
  };
}
