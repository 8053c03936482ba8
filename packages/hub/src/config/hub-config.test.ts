import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '@binnacle/common/server';
import { afterAll, describe, expect, it } from 'vitest';
import { type HubConfig, loadHubConfig } from './hub-config.ts';
import { redisLocation } from './replica-config.ts';
import { loadSecretKey } from './secret-key.ts';

const dir = mkdtempSync(join(tmpdir(), 'binnacle-hub-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
/** A fresh file in the test's temp dir; each case gets its own so none sees another's settings. */
function tempFile(content: string, name = 'file'): string {
  files += 1;
  const path = join(dir, `${files}-${name}`);
  writeFileSync(path, content);
  return path;
}

const yaml = (content: string) => ['--config', tempFile(content, 'hub.yaml')];
const minute = 60_000;
const hour = 60 * minute;
const password = 'correct horse battery staple';
const key = 'ab'.repeat(32);
const postgres = ['--database-url', 'postgres://127.0.0.1:1/x'];
const redis = ['--redis-url', 'redis://127.0.0.1:6379'];
/** What several replicas need: PostgreSQL, Redis and an explicit key. */
const replicas = { argv: [...postgres, ...redis], env: { BINNACLE_SECRET_KEY: key } };

function load(argv: string[], env: NodeJS.ProcessEnv = {}): HubConfig {
  const loaded = loadHubConfig(argv, env);
  if (loaded.help) throw new Error('unexpected help');
  return loaded.config;
}

/** The UsageError a bad setting raises; anything else (or nothing) fails the test. */
function refusal(run: () => unknown): UsageError {
  try {
    run();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error('expected a UsageError, the configuration was accepted');
}

interface Refused {
  name: string;
  argv: string[];
  env?: NodeJS.ProcessEnv;
  /** What the message must contain: the setting as the user wrote it (flag, variable or file key). */
  names: string;
}

/** A refusal of an otherwise complete replica setup (PostgreSQL, Redis, key), `extra` flags winning. */
const replicasWith = (name: string, extra: string[], names: string): Refused => ({
  name,
  argv: [...replicas.argv, ...extra],
  env: replicas.env,
  names,
});

const refusals: Refused[] = [
  { name: 'maxInactive below 20m as a flag', argv: ['--max-inactive', '10m'], names: 'maxInactive' },
  {
    name: 'maxInactive below 20m as a variable',
    argv: [],
    env: { BINNACLE_MAX_INACTIVE: '19m59s' },
    names: 'maxInactive',
  },
  { name: 'maxInactive below 20m in the config file', argv: yaml('maxInactive: 5m\n'), names: 'maxInactive' },
  { name: 'maxInactive of 19m', argv: yaml('maxInactive: 19m\n'), names: 'maxInactive' },
  {
    name: 'clusterAccess idp with the hosted identity provider configured',
    argv: [
      '--oidc-issuer',
      'https://idp.example',
      '--oidc-client-id',
      'hub',
      '--hosted-idp-jwks-url',
      'https://hosted.example/jwks',
      '--hosted-idp-issuer',
      'https://hosted.example',
      '--oidc-cluster-access',
      'idp',
    ],
    env: { BINNACLE_OIDC_CLIENT_SECRET: 'secret' },
    names: 'oidcClusterAccess',
  },
  {
    name: 'clusterAccess idp without an issuer',
    argv: ['--oidc-cluster-access', 'idp'],
    names: 'oidcClusterAccess',
  },
  {
    name: 'clusterAccess idp with group forwarding off',
    argv: [
      '--oidc-issuer',
      'https://idp.example',
      '--oidc-client-id',
      'hub',
      '--oidc-groups-claim',
      '',
      '--oidc-cluster-access',
      'idp',
    ],
    env: { BINNACLE_OIDC_CLIENT_SECRET: 'secret' },
    names: 'oidcClusterAccess',
  },
  {
    name: 'an OIDC issuer without a client secret',
    argv: ['--oidc-issuer', 'https://idp.example', '--oidc-client-id', 'hub'],
    names: 'oidcClientSecret',
  },
  {
    name: 'a hosted JWKS without its issuer',
    argv: ['--hosted-idp-jwks-url', 'https://hosted.example/jwks'],
    names: 'hostedIdpIssuer',
  },
  { name: 'a duration in days as a flag', argv: ['--session-lifetime', '7d'], names: '--session-lifetime' },
  {
    name: 'a duration in days as a variable',
    argv: [],
    env: { BINNACLE_SESSION_LIFETIME: '7d' },
    names: 'BINNACLE_SESSION_LIFETIME',
  },
  {
    name: 'a duration in days in the config file',
    argv: yaml('sessionLifetime: 7d\n'),
    names: 'sessionLifetime',
  },
  { name: 'maxInactive in days', argv: ['--max-inactive', '1d'], names: '--max-inactive' },
  {
    name: 'a session lifetime shorter than maxInactive',
    argv: ['--session-lifetime', '1h', '--max-inactive', '2h'],
    names: 'sessionLifetime',
  },
  { name: 'PostgreSQL without a secret key', argv: postgres, names: 'secretKey' },
  {
    name: 'a secret key file that does not exist',
    argv: [...postgres, '--secret-key-file', join(dir, 'missing.key')],
    names: 'secretKeyFile',
  },
  {
    name: 'a database URL that is not PostgreSQL',
    argv: ['--database-url', 'mysql://127.0.0.1/x'],
    env: { BINNACLE_SECRET_KEY: key },
    names: 'databaseUrl',
  },
  {
    name: 'a break-glass email without a password',
    argv: ['--break-glass-email', 'admin@example.com'],
    names: 'breakGlassEmail',
  },
  {
    name: 'a break-glass password file that does not exist',
    argv: ['--break-glass-email', 'admin@example.com', '--break-glass-password-file', join(dir, 'missing')],
    names: 'breakGlassPasswordFile',
  },
  {
    name: 'a break-glass password without an email',
    argv: [],
    env: { BINNACLE_BREAK_GLASS_PASSWORD: password },
    names: 'breakGlassEmail',
  },
  {
    name: 'a break-glass email that is not an address',
    argv: ['--break-glass-email', 'admin'],
    env: { BINNACLE_BREAK_GLASS_PASSWORD: password },
    names: 'breakGlassEmail',
  },
  {
    name: 'a break-glass password of 11 characters from the environment',
    argv: ['--break-glass-email', 'admin@example.com'],
    env: { BINNACLE_BREAK_GLASS_PASSWORD: '12345678901' },
    names: 'BINNACLE_BREAK_GLASS_PASSWORD',
  },
  {
    name: 'a break-glass password of 11 characters from a file',
    argv: [
      '--break-glass-email',
      'admin@example.com',
      '--break-glass-password-file',
      tempFile('12345678901\n', 'password'),
    ],
    names: 'breakGlassPasswordFile',
  },
  {
    name: 'a break-glass password of 11 characters in the config file',
    argv: yaml('breakGlassEmail: admin@example.com\nbreakGlassPassword: "12345678901"\n'),
    names: 'breakGlassPassword',
  },
  {
    name: 'a secret key shorter than 32 bytes',
    argv: postgres,
    env: { BINNACLE_SECRET_KEY: 'ab'.repeat(31) },
    names: 'BINNACLE_SECRET_KEY',
  },
  {
    name: 'an unknown config-file key',
    argv: yaml('port: 9400\nmaxInactiveMs: 3600000\n'),
    names: 'maxInactiveMs',
  },
  {
    name: 'a config file that does not exist',
    argv: ['--config', join(dir, 'nope.yaml')],
    names: 'nope.yaml',
  },
  { name: 'a config file that is a list', argv: yaml('- port\n'), names: 'hub.yaml' },
  {
    name: 'a plain-http public URL off localhost',
    argv: ['--public-url', 'http://hub.example.com'],
    names: 'publicUrl',
  },
  {
    name: 'a plain-http public URL whose host only starts with localhost',
    argv: [],
    env: { BINNACLE_PUBLIC_URL: 'http://localhost.example.com' },
    names: 'publicUrl',
  },
  { name: 'a public URL that is not http(s)', argv: ['--public-url', 'ftp://hub'], names: '--public-url' },
  { name: 'Redis on SQLite', argv: redis, env: { BINNACLE_SECRET_KEY: key }, names: 'redisUrl' },
  {
    name: 'Redis (from the variable) on SQLite',
    argv: [],
    env: { BINNACLE_REDIS_URL: 'redis://127.0.0.1:6379', BINNACLE_SECRET_KEY: key },
    names: 'redisUrl',
  },
  { name: 'Redis without an explicit secret key', argv: [...postgres, ...redis], names: 'secretKey' },
  replicasWith('an http:// Redis URL', ['--redis-url', 'http://127.0.0.1:6379'], 'redisUrl'),
  replicasWith('a Redis URL that does not parse', ['--redis-url', '127.0.0.1:6379'], 'redisUrl'),
  replicasWith('a Redis database that is no number', ['--redis-url', 'redis://r:6379/x'], 'redisUrl'),
  replicasWith('Redis on 0.0.0.0 and no replica URL', ['--listen-address', '0.0.0.0'], '--replica-url'),
  replicasWith('Redis on :: and no replica URL', ['--listen-address', '::'], 'replicaUrl'),
  replicasWith('Redis on port 65535 and no replica URL', ['--port', '65535'], '--replica-url'),
  replicasWith('a replica URL on the hub port', ['--replica-url', 'http://10.0.0.7:9380'], 'replicaUrl'),
  replicasWith('a replica URL without a port', ['--replica-url', 'http://10.0.0.7'], 'replicaUrl'),
  replicasWith('an https replica URL', ['--replica-url', 'https://10.0.0.7:9381'], 'replicaUrl'),
  replicasWith('a replica URL with a path', ['--replica-url', 'http://10.0.0.7:9381/hub'], 'replicaUrl'),
  replicasWith('a tcp:// replica URL', ['--replica-url', 'tcp://10.0.0.7:9381'], '--replica-url'),
  replicasWith('a replica URL that does not parse', ['--replica-url', 'http://10.0.0.7:x'], 'replicaUrl'),
  replicasWith('an IPv6 replica URL without a port', ['--replica-url', 'http://fd00::7'], 'replicaUrl'),
  {
    name: 'a replica URL without Redis',
    argv: ['--replica-url', 'http://10.0.0.7:9381'],
    names: 'replicaUrl',
  },
  {
    name: 'an allowed network with a prefix too long',
    argv: ['--outbound-allowed-networks', '10.0.0.0/8, 10.0.0.0/33'],
    names: 'outboundAllowedNetworks: "10.0.0.0/33"',
  },
  {
    name: 'an allowed network that is a host name, in the config file',
    argv: yaml('outboundAllowedNetworks: [10.0.0.0/8, idp.internal]\n'),
    names: 'outboundAllowedNetworks: "idp.internal"',
  },
  { name: 'an unknown flag', argv: ['--max-inactiv', '1h'], names: '--max-inactiv' },
  { name: 'a port out of range', argv: [], env: { BINNACLE_HUB_PORT: '70000' }, names: 'BINNACLE_HUB_PORT' },
];

describe('loadHubConfig', () => {
  it.each(refusals)('refuses $name, naming it', ({ argv, env, names }) => {
    expect(refusal(() => load(argv, env)).message).toContain(names);
  });

  it('reads the networks the hub may fetch from for callers as a comma-separated value or a YAML list', () => {
    expect(load(['--outbound-allowed-networks', '10.0.0.0/8,fd00::/8']).outboundAllowedNetworks).toBe(
      '10.0.0.0/8,fd00::/8',
    );
    expect(load(yaml('outboundAllowedNetworks: [10.0.0.0/8, 127.0.0.1]\n')).outboundAllowedNetworks).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
    ]);
  });

  it('says how to write days in hours form', () => {
    expect(refusal(() => load(['--session-lifetime', '7d'])).message).toContain('write 168h');
  });

  it('applies the defaults', () => {
    expect(load([])).toMatchObject({
      port: 9380,
      listenAddress: '127.0.0.1',
      publicUrl: 'http://localhost:9380',
      dataDir: join(homedir(), '.binnacle-hub'),
      sessionLifetimeMs: 168 * hour,
      maxInactiveMs: 24 * hour,
      debugRequests: false,
    });
    const { databaseUrl, breakGlassEmail, breakGlassPassword, secretKey } = load([]);
    expect([databaseUrl, breakGlassEmail, breakGlassPassword, secretKey]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('takes a flag over a variable over the config file over the default', () => {
    const file = yaml('port: 9001\nsessionLifetime: 48h\n');
    const env = { BINNACLE_HUB_PORT: '9002', BINNACLE_SESSION_LIFETIME: '72h' };
    expect(load([...file, '--port', '9003', '--session-lifetime', '96h'], env)).toMatchObject({
      port: 9003,
      sessionLifetimeMs: 96 * hour,
      // The default public URL follows the port that won.
      publicUrl: 'http://localhost:9003',
    });
    expect(load(file, env)).toMatchObject({ port: 9002, sessionLifetimeMs: 72 * hour });
    expect(load(file)).toMatchObject({ port: 9001, sessionLifetimeMs: 48 * hour });
  });

  it('reads the config file from BINNACLE_HUB_CONFIG too', () => {
    const path = tempFile('port: 9010\nlistenAddress: 0.0.0.0\n', 'hub.yaml');
    expect(load([], { BINNACLE_HUB_CONFIG: path })).toMatchObject({ port: 9010, listenAddress: '0.0.0.0' });
  });

  it('accepts durations in hours form, 20m being the shortest maxInactive', () => {
    expect(load(['--max-inactive', '20m']).maxInactiveMs).toBe(20 * minute);
    expect(load([], { BINNACLE_MAX_INACTIVE: '1h30m' }).maxInactiveMs).toBe(90 * minute);
    expect(load(yaml('sessionLifetime: 168h\nmaxInactive: 45m\n'))).toMatchObject({
      sessionLifetimeMs: 168 * hour,
      maxInactiveMs: 45 * minute,
    });
  });

  it('accepts https public URLs anywhere and plain http on localhost, keeping the origin', () => {
    expect(load(['--public-url', 'https://hub.example.com/']).publicUrl).toBe('https://hub.example.com');
    expect(load(['--public-url', 'http://localhost:8080']).publicUrl).toBe('http://localhost:8080');
    expect(load(['--public-url', 'http://127.0.0.1:8080']).publicUrl).toBe('http://127.0.0.1:8080');
  });

  it('reads the break-glass password from the environment', () => {
    const config = load(['--break-glass-email', 'admin@example.com'], {
      BINNACLE_BREAK_GLASS_PASSWORD: password,
    });
    expect(config).toMatchObject({ breakGlassEmail: 'admin@example.com', breakGlassPassword: password });
  });

  it('reads the break-glass password from --break-glass-password-file, without the trailing newline', () => {
    const file = tempFile(`${password}\n`, 'password');
    const config = load(['--break-glass-email', 'admin@example.com', '--break-glass-password-file', file]);
    expect(config.breakGlassPassword).toBe(password);
    const fromEnv = load([], {
      BINNACLE_BREAK_GLASS_EMAIL: 'admin@example.com',
      BINNACLE_BREAK_GLASS_PASSWORD_FILE: file,
    });
    expect(fromEnv.breakGlassPassword).toBe(password);
  });

  it('reads breakGlassPassword and secretKey from the config file', () => {
    const config = load([
      ...postgres,
      ...yaml(`breakGlassEmail: admin@example.com\nbreakGlassPassword: ${password}\nsecretKey: ${key}\n`),
    ]);
    expect(config).toMatchObject({ breakGlassPassword: password, secretKey: key });
  });

  it('takes secrets from the environment over the config file and over secret files', () => {
    const envPassword = 'from the environment!';
    const envKey = 'cd'.repeat(32);
    const env = { BINNACLE_BREAK_GLASS_PASSWORD: envPassword, BINNACLE_SECRET_KEY: envKey };
    const inYaml = yaml(
      `breakGlassEmail: admin@example.com\nbreakGlassPassword: ${password}\nsecretKey: ${key}\n`,
    );
    expect(load([...postgres, ...inYaml], env)).toMatchObject({
      breakGlassPassword: envPassword,
      secretKey: envKey,
    });
    const inFiles = [
      '--break-glass-email',
      'admin@example.com',
      '--break-glass-password-file',
      tempFile(password, 'password'),
      '--secret-key-file',
      tempFile(key, 'secret.key'),
    ];
    expect(load([...postgres, ...inFiles], env)).toMatchObject({
      breakGlassPassword: envPassword,
      secretKey: envKey,
    });
    expect(load([...postgres, ...inFiles])).toMatchObject({ breakGlassPassword: password, secretKey: key });
  });

  it('takes a password file named by a flag over a password written in the config file', () => {
    const inYaml = yaml(`breakGlassEmail: admin@example.com\nbreakGlassPassword: written in the file\n`);
    const fromFile = ['--break-glass-password-file', tempFile(password, 'password')];
    expect(load([...inYaml, ...fromFile]).breakGlassPassword).toBe(password);
  });

  it('checks numbers in the config file like flags: a bare number is no duration, a port stays in range', () => {
    expect(refusal(() => load(yaml('maxInactive: 3600\n'))).message).toMatch(/maxInactive/);
    expect(refusal(() => load(yaml('port: 70000\n'))).message).toMatch(/port/);
    expect(load(yaml('port: 9444\n')).port).toBe(9444);
  });

  it('runs as one of several replicas with Redis, PostgreSQL and an explicit key', () => {
    expect(load(replicas.argv, replicas.env)).toMatchObject({
      redisUrl: 'redis://127.0.0.1:6379',
      databaseUrl: 'postgres://127.0.0.1:1/x',
      replicaUrl: 'http://127.0.0.1:9381',
    });
    const fromEnv = load(['--secret-key-file', tempFile(key, 'secret.key')], {
      BINNACLE_DATABASE_URL: 'postgres://db/hub',
      BINNACLE_REDIS_URL: 'rediss://:pw@redis.internal:6380/2',
      BINNACLE_HUB_LISTEN_ADDRESS: '0.0.0.0',
      BINNACLE_HUB_PORT: '9400',
      BINNACLE_REPLICA_URL: 'http://10.0.0.7:9401/',
    });
    expect(fromEnv).toMatchObject({
      redisUrl: 'rediss://:pw@redis.internal:6380/2',
      replicaUrl: 'http://10.0.0.7:9401',
    });
    expect(
      load(yaml(`databaseUrl: postgres://db/hub\nredisUrl: redis://r\nsecretKey: ${key}\n`)),
    ).toMatchObject({
      redisUrl: 'redis://r',
      replicaUrl: 'http://127.0.0.1:9381',
    });
    expect(load([...replicas.argv, '--listen-address', '::1'], replicas.env).replicaUrl).toBe(
      'http://[::1]:9381',
    );
    // The chart's http://$(POD_IP):9381 on an IPv6 pod network: the address is bracketed, the port kept.
    const podIpv6 = { ...replicas.env, BINNACLE_REPLICA_URL: 'http://fd00:10:244::7:9381' };
    expect(load(replicas.argv, podIpv6).replicaUrl).toBe('http://[fd00:10:244::7]:9381');
    expect(load([...replicas.argv, '--replica-url', 'http://[fd00::7]:9381'], replicas.env).replicaUrl).toBe(
      'http://[fd00::7]:9381',
    );
    expect(load([]).replicaUrl).toBeUndefined();
  });

  it('never quotes the Redis password, in a refusal or in the location it logs', () => {
    const secret = 'hunter2-redis';
    for (const url of [`http://:${secret}@127.0.0.1:6379`, `redis://:${secret}@127.0.0.1:6379/db`]) {
      const message = refusal(() => load([...postgres, '--redis-url', url], replicas.env)).message;
      expect(message).toContain('redisUrl');
      expect(message).not.toContain(secret);
    }
    expect(redisLocation(`rediss://default:${secret}@redis.internal:6380/2`)).toBe(
      'rediss://redis.internal:6380/2',
    );
    expect(redisLocation(`redis://:${secret}@127.0.0.1:6379`)).toBe('redis://127.0.0.1:6379');
  });

  it('answers --help and -h without validating the rest', () => {
    expect(loadHubConfig(['--help'], {})).toEqual({ help: true });
    expect(loadHubConfig(['-h', '--max-inactive', '1m'], {})).toEqual({ help: true });
  });
});

describe('loadSecretKey', () => {
  it('generates a 32-byte key in the data dir (mode 0600) once and reads the same key back', () => {
    const dataDir = join(dir, 'generated', 'data');
    const first = loadSecretKey(undefined, dataDir);
    expect(first).toHaveLength(32);
    const path = join(dataDir, 'secret.key');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(readFileSync(path, 'utf8').trim()).toBe(first.toString('hex'));
    expect(loadSecretKey(undefined, dataDir).equals(first)).toBe(true);
    // Another data dir is another hub: another key.
    expect(loadSecretKey(undefined, join(dir, 'generated', 'other')).equals(first)).toBe(false);
  });

  it('uses a configured key written as hex or base64', () => {
    const bytes = Buffer.from(key, 'hex');
    expect(loadSecretKey(key, join(dir, 'unused')).equals(bytes)).toBe(true);
    expect(loadSecretKey(bytes.toString('base64'), join(dir, 'unused')).equals(bytes)).toBe(true);
  });

  it('refuses a key shorter than 32 bytes, naming the setting or the file', () => {
    expect(refusal(() => loadSecretKey('ab'.repeat(31), dir)).message).toContain('secretKey');
    expect(refusal(() => loadSecretKey(Buffer.alloc(31).toString('base64'), dir)).message).toContain(
      'secretKey',
    );
    const dataDir = mkdtempSync(join(dir, 'short-'));
    writeFileSync(join(dataDir, 'secret.key'), 'abcd\n');
    expect(refusal(() => loadSecretKey(undefined, dataDir)).message).toContain(join(dataDir, 'secret.key'));
  });
});
