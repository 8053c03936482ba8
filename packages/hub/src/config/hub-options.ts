import type { OptionSpec } from '@binnacle/common/server';
import { billingOptions } from './billing-config.ts';
import type { HubConfig } from './hub-config.ts';
import { networkOptions } from './network-config.ts';
import { oidcClientSecretEnv, oidcOptions } from './oidc-config.ts';

/** Every setting of `binnacle hub`: flag, variable and config-file key in one table. */
export const hubOptions: OptionSpec<HubConfig>[] = [
  {
    flag: 'port',
    key: 'port',
    env: 'BINNACLE_HUB_PORT',
    type: 'port',
    placeholder: 'N',
    help: 'port to serve on',
  },
  {
    flag: 'listen-address',
    key: 'listenAddress',
    env: 'BINNACLE_HUB_LISTEN_ADDRESS',
    type: 'string',
    placeholder: 'ADDR',
    help: 'address to listen on',
  },
  {
    flag: 'public-url',
    key: 'publicUrl',
    env: 'BINNACLE_PUBLIC_URL',
    type: 'url',
    placeholder: 'URL',
    help: 'the URL people and agents reach the hub at; https, or http://localhost for development',
    defaultText: 'http://localhost:<port>',
  },
  {
    flag: 'data-dir',
    key: 'dataDir',
    env: 'BINNACLE_HUB_DATA_DIR',
    type: 'path',
    placeholder: 'DIR',
    help: 'where the SQLite database and a generated key live',
  },
  {
    flag: 'database-url',
    key: 'databaseUrl',
    env: 'BINNACLE_DATABASE_URL',
    type: 'string',
    placeholder: 'URL',
    help: 'PostgreSQL (postgres://user:pass@host/db)',
    defaultText: 'SQLite in the data dir',
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
    help: 'with --redis-url: http://host:port the other replicas reach this one at directly, on a port of its own',
    defaultText: 'http://<listen-address>:<port + 1>',
  },
  {
    flag: 'session-lifetime',
    key: 'sessionLifetimeMs',
    fileKey: 'sessionLifetime',
    env: 'BINNACLE_SESSION_LIFETIME',
    type: 'duration',
    placeholder: 'DURATION',
    help: 'absolute lifetime of a sign-in session',
  },
  {
    flag: 'max-inactive',
    key: 'maxInactiveMs',
    fileKey: 'maxInactive',
    env: 'BINNACLE_MAX_INACTIVE',
    type: 'duration',
    placeholder: 'DURATION',
    help: 'a session unused this long ends; at least 20m',
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
  ...(networkOptions as OptionSpec<HubConfig>[]),
  ...(oidcOptions as OptionSpec<HubConfig>[]),
  ...(billingOptions as OptionSpec<HubConfig>[]),
];

/** Settings that may only come from the environment or the config file, never from a flag (they are secrets). */
export const secretSettings = {
  breakGlassPassword: 'BINNACLE_BREAK_GLASS_PASSWORD',
  secretKey: 'BINNACLE_SECRET_KEY',
  oidcClientSecret: oidcClientSecretEnv,
} as const;
