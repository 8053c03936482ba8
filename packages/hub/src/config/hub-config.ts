import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseDuration } from '@binnacle/common';
import {
  AppError,
  parseOptions,
  parseYaml,
  resolveOptions,
  UsageError,
  yamlLimits,
} from '@binnacle/common/server';
import { type BillingSettings, billingDefaults } from './billing-config.ts';
import { hubOptions, secretSettings } from './hub-options.ts';
import type { NetworkSettings } from './network-config.ts';
import { type OidcSettings, oidcDefaults } from './oidc-config.ts';
import { validateHubConfig } from './validate-hub-config.ts';

/** The hub's settings after flags > BINNACLE_* env > config file > defaults, checked at boot. */
export interface HubConfig extends OidcSettings, BillingSettings, NetworkSettings {
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

/** The keys the YAML config file accepts: every setting but the file's own path. */
export const hubFileKeys = (): Set<string> =>
  new Set([
    ...hubOptions.filter((o) => o.key !== 'configFile').map((o) => o.fileKey ?? o.key),
    ...Object.keys(secretSettings),
  ]);

/** The settings of the YAML config file; a key it does not know is refused by name (a typo never goes unnoticed). */
function readConfigFile(path: string | undefined): Record<string, unknown> {
  if (!path) return {};
  if (!existsSync(path)) throw new UsageError(`config file ${path} does not exist`);
  let value: unknown;
  try {
    value = parseYaml(readFileSync(path, 'utf8'), yamlLimits.stored, `config file ${path}`);
  } catch (error) {
    if (error instanceof AppError) throw new UsageError(error.message);
    throw error;
  }
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new UsageError(`config file ${path} must hold a mapping of settings`);
  const known = hubFileKeys();
  for (const key of Object.keys(value)) {
    if (!known.has(key)) throw new UsageError(`config file ${path}: unknown setting "${key}"`);
  }
  return value as Record<string, unknown>;
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
