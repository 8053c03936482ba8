import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { freePort, helmBinary, repoRoot } from '@binnacle/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

const chart = resolve(repoRoot, 'charts/binnacle-hub');
const cli = resolve(repoRoot, 'packages/cli/src/binnacle.ts');
const run = promisify(execFile);
const dataDir = await mkdtemp(join(tmpdir(), 'binnacle-chart-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

const oidc = [
  'auth.oidc.issuer=https://idp.example.com/realms/acme',
  'auth.oidc.clientID=binnacle',
  'auth.oidc.clientSecretExistingSecret=binnacle-oidc',
];

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: unknown;
}
/** The part of a rendered object the tests read. */
interface Rendered {
  kind: string;
  spec?: {
    replicas?: number;
    maxUnavailable?: number;
    template: {
      spec: {
        containers: { env: EnvVar[]; ports: { name: string; containerPort: number }[] }[];
        volumes: Record<string, unknown>[];
      };
    };
  };
}

/** What several replicas need: PostgreSQL and Redis (from secrets) and a shared key. */
const replicated = [
  'replicaCount=3',
  'database.existingSecret=hub-db',
  'secretKey.existingSecret=hub-key',
  'redis.existingSecret=hub-redis',
];

/** `helm template` with --set values: the rendered objects, or the error helm printed. */
async function template(sets: string[]): Promise<{ objects: Rendered[] } | { error: string }> {
  try {
    const { stdout } = await run(await helmBinary(), [
      'template',
      'hub',
      chart,
      ...sets.flatMap((s) => ['--set', s]),
    ]);
    return {
      objects: parseAllDocuments(stdout)
        .map((d) => d.toJS())
        .filter(Boolean),
    };
  } catch (error) {
    return { error: String((error as { stderr?: string }).stderr ?? error) };
  }
}

/** The rendered objects; a refusal fails the test with helm's message. */
async function render(sets: string[]): Promise<Rendered[]> {
  const rendered = await template(sets);
  if (!('objects' in rendered)) throw new Error(rendered.error);
  return rendered.objects;
}

const kinds = (objects: Rendered[]) => objects.map((o) => o.kind).sort();

function containerOf(objects: Rendered[]) {
  const container = objects.find((o) => o.kind === 'Deployment')?.spec?.template.spec.containers[0];
  if (!container) throw new Error('no Deployment rendered');
  return container;
}

function hubEnv(objects: Rendered[]): Record<string, string> {
  const env = containerOf(objects).env;
  return Object.fromEntries(env.filter((e) => e.value !== undefined).map((e) => [e.name, e.value as string]));
}

async function bootHub(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const port = String(await freePort());
  return new Promise((done) => {
    const child = spawn(process.execPath, [cli, 'hub'], {
      env: {
        PATH: process.env.PATH,
        HOME: dataDir,
        ...env,
        BINNACLE_HUB_DATA_DIR: dataDir,
        BINNACLE_HUB_PORT: port,
        BINNACLE_HUB_LISTEN_ADDRESS: '127.0.0.1',
      },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // A safety net for a hub that boots instead of refusing; generous, since CI's busiest minutes (hundreds of
    // shells spawned by other suites) once slowed a refusing hub's start past 20 s. Inside the 60 s test timeout.
    const timer = setTimeout(() => child.kill('SIGKILL'), 45_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, stderr });
    });
  });
}

describe('the binnacle-hub chart', () => {
  it('passes helm lint and renders the defaults: one replica on SQLite, refresh tokens on', async () => {
    await run(await helmBinary(), ['lint', chart]);
    const rendered = await render([]);
    expect(kinds(rendered)).toEqual(['Deployment', 'PersistentVolumeClaim', 'Service', 'ServiceAccount']);
    expect(hubEnv(rendered)).toMatchObject({
      BINNACLE_OIDC_USE_REFRESH_TOKEN: 'true',
      BINNACLE_MAX_INACTIVE: '24h',
      BINNACLE_SESSION_LIFETIME: '168h',
      BINNACLE_OIDC_GROUPS_CLAIM: 'groups',
    });
  });

  it('renders OIDC settings, with the client secret read from the existing secret key client-secret', async () => {
    const rendered = await render([
      ...oidc,
      'auth.oidc.clusterAccess=idp',
      'auth.oidc.scopes={groups,offline_access}',
    ]);
    const container = containerOf(rendered);
    expect(hubEnv(rendered)).toMatchObject({
      BINNACLE_OIDC_ISSUER: 'https://idp.example.com/realms/acme',
      BINNACLE_OIDC_CLUSTER_ACCESS: 'idp',
      BINNACLE_OIDC_SCOPES: 'groups,offline_access',
      BINNACLE_OIDC_DEFAULT_ROLE: 'member',
    });
    expect(container.env.find((e) => e.name === 'BINNACLE_OIDC_CLIENT_SECRET')?.valueFrom).toEqual({
      secretKeyRef: { name: 'binnacle-oidc', key: 'client-secret' },
    });
  });

  it('renders three replicas on PostgreSQL and Redis: each told its pod IP, a disruption budget, no volume claim', async () => {
    const rendered = await render(replicated);
    expect(kinds(rendered)).toEqual(['Deployment', 'PodDisruptionBudget', 'Service', 'ServiceAccount']);
    const deployment = rendered.find((o) => o.kind === 'Deployment');
    expect(deployment?.spec?.replicas).toBe(3);
    expect(deployment?.spec?.template.spec.volumes).toContainEqual({ name: 'data', emptyDir: {} });
    expect(rendered.find((o) => o.kind === 'PodDisruptionBudget')?.spec?.maxUnavailable).toBe(1);
    expect(containerOf(rendered).ports).toEqual([
      { name: 'http', containerPort: 9380 },
      { name: 'replica', containerPort: 9381 },
    ]);
    const env = containerOf(rendered).env;
    const byName = (name: string) => env.find((e) => e.name === name);
    expect(byName('BINNACLE_REDIS_URL')?.valueFrom).toEqual({
      secretKeyRef: { name: 'hub-redis', key: 'redis-url' },
    });
    expect(byName('POD_IP')?.valueFrom).toEqual({ fieldRef: { fieldPath: 'status.podIP' } });
    // Kubernetes expands $(POD_IP) only from a variable listed before it.
    expect(env.findIndex((e) => e.name === 'POD_IP')).toBeLessThan(
      env.findIndex((e) => e.name === 'BINNACLE_REPLICA_URL'),
    );
    expect(hubEnv(rendered)).toMatchObject({
      BINNACLE_REPLICA_URL: 'http://$(POD_IP):9381',
      BINNACLE_HUB_LISTEN_ADDRESS: '0.0.0.0',
    });
    expect(byName('BINNACLE_SECRET_KEY')?.valueFrom).toEqual({
      secretKeyRef: { name: 'hub-key', key: 'secret-key' },
    });
  });

  it('reads the Redis URL from a chosen secret key or from redis.url, and keeps one replica without a budget', async () => {
    const fromKey = await render([...replicated, 'redis.key=url']);
    expect(containerOf(fromKey).env.find((e) => e.name === 'BINNACLE_REDIS_URL')?.valueFrom).toEqual({
      secretKeyRef: { name: 'hub-redis', key: 'url' },
    });
    const single = await render([
      'database.url=postgres://db/binnacle',
      'secretKey.existingSecret=hub-key',
      'redis.url=rediss://redis.internal:6380/1',
    ]);
    expect(kinds(single)).not.toContain('PodDisruptionBudget');
    expect(hubEnv(single)).toMatchObject({ BINNACLE_REDIS_URL: 'rediss://redis.internal:6380/1' });
  });

  it('passes the trusted proxies and their hop count, when set', async () => {
    const defaults = hubEnv(await render([]));
    expect([defaults.BINNACLE_TRUSTED_PROXIES, defaults.BINNACLE_TRUSTED_PROXY_HOPS]).toEqual([
      undefined,
      undefined,
    ]);
    const rendered = await render(['trustedProxies={10.0.0.0/8,192.168.0.10}', 'trustedProxyHops=2']);
    expect(hubEnv(rendered)).toMatchObject({
      BINNACLE_TRUSTED_PROXIES: '10.0.0.0/8,192.168.0.10',
      BINNACLE_TRUSTED_PROXY_HOPS: '2',
    });
    const boot = await bootHub({ BINNACLE_TRUSTED_PROXIES: '10.0.0.0/8,ingress' });
    expect(boot.code).toBe(2);
    expect(boot.stderr).toContain('trustedProxies: "ingress"');
  });

  it('passes the networks the hub may fetch from for callers as one comma-separated variable', async () => {
    expect(hubEnv(await render([])).BINNACLE_OUTBOUND_ALLOWED_NETWORKS).toBeUndefined();
    const rendered = await render(['outboundAllowedNetworks={10.0.0.0/8,fd00::/8}']);
    expect(hubEnv(rendered)).toMatchObject({ BINNACLE_OUTBOUND_ALLOWED_NETWORKS: '10.0.0.0/8,fd00::/8' });
  });

  const refusals: [string, string[], RegExp][] = [
    ['a duration in days', ['maxInactive=7d'], /maxInactive/],
    ['a session lifetime in days', ['sessionLifetime=7d'], /sessionLifetime/],
    ['clusterAccess idp without an issuer', ['auth.oidc.clusterAccess=idp'], /issuer/],
    [
      'clusterAccess idp with an empty groupsClaim',
      [...oidc, 'auth.oidc.clusterAccess=idp', 'auth.oidc.groupsClaim='],
      /groupsClaim/,
    ],
    [
      'clusterAccess idp with the hosted IdP',
      [...oidc, 'auth.oidc.clusterAccess=idp', 'auth.hosted.jwksUrl=https://hosted.example/jwks'],
      /jwksUrl/,
    ],
    [
      'an issuer without a client secret',
      ['auth.oidc.issuer=https://idp.example.com', 'auth.oidc.clientID=x'],
      /clientSecretExistingSecret/,
    ],
    ['a break-glass e-mail without its secret', ['breakGlass.email=admin@example.com'], /existingSecret/],
    ['PostgreSQL without a secret key', ['database.url=postgres://db/binnacle'], /secretKey/],
    ['two replicas on SQLite', ['replicaCount=2'], /PostgreSQL/],
    ['two replicas on SQLite, with Redis', ['replicaCount=2', 'redis.url=redis://redis:6379'], /PostgreSQL/],
    [
      'two replicas without Redis',
      ['replicaCount=2', 'database.url=postgres://db/binnacle', 'secretKey.existingSecret=hub-key'],
      /replicaCount above 1 needs Redis/,
    ],
    [
      'two replicas without a secret key',
      ['replicaCount=2', 'database.url=postgres://db/binnacle', 'redis.url=redis://redis:6379'],
      /secretKey/,
    ],
    ['Redis on SQLite', ['redis.existingSecret=hub-redis'], /redis needs PostgreSQL/],
    [
      'a Redis URL that is not redis:// or rediss://',
      ['database.url=postgres://db/binnacle', 'secretKey.existingSecret=k', 'redis.url=http://redis:6379'],
      /redis/,
    ],
    ['an unknown role', ['auth.oidc.defaultRole=admin'], /defaultRole/],
    ['a trusted proxy that is a host name', ['trustedProxies={ingress-nginx}'], /trustedProxies/],
    ['more than 10 proxy hops', ['trustedProxyHops=11'], /trustedProxyHops/],
    [
      'an allowed network that is a host name',
      ['outboundAllowedNetworks={idp.example.com}'],
      /outboundAllowedNetworks/,
    ],
  ];
  for (const [name, sets, message] of refusals) {
    it(`refuses ${name}`, async () => {
      const rendered = await template(sets);
      expect('error' in rendered ? rendered.error : 'rendered').toMatch(message);
    });
  }

  it('renders maxInactive: 19m, which the hub then refuses at boot naming the setting', async () => {
    const rendered = await render(['maxInactive=19m']);
    const boot = await bootHub(hubEnv(rendered));
    expect(boot.code).toBe(2);
    expect(boot.stderr).toMatch(/BINNACLE_MAX_INACTIVE|maxInactive/);
    expect(boot.stderr).toContain('20m');
  });

  it('the hub refuses to boot with an allowed network it cannot read, naming the setting and the entry', async () => {
    const boot = await bootHub({ BINNACLE_OUTBOUND_ALLOWED_NETWORKS: '10.0.0.0/8,10.0.0.0/33' });
    expect(boot.code).toBe(2);
    expect(boot.stderr).toContain('outboundAllowedNetworks: "10.0.0.0/33" is not an IP address or a network');
  });

  it('the hub refuses to boot with Redis on SQLite, naming redisUrl and never quoting its password', async () => {
    const boot = await bootHub({ BINNACLE_REDIS_URL: 'redis://:hunter2-redis@127.0.0.1:6379' });
    expect(boot.code).toBe(2);
    expect(boot.stderr).toContain('redisUrl');
    expect(boot.stderr).toContain('PostgreSQL');
    expect(boot.stderr).not.toContain('hunter2-redis');
  });

  it('the hub refuses to boot with the hosted IdP and clusterAccess idp (group forwarding cannot work)', async () => {
    const boot = await bootHub({
      BINNACLE_PUBLIC_URL: 'https://hub.example.com',
      BINNACLE_OIDC_ISSUER: 'https://idp.example.com',
      BINNACLE_OIDC_CLIENT_ID: 'hub',
      BINNACLE_OIDC_CLIENT_SECRET: 'secret',
      BINNACLE_OIDC_CLUSTER_ACCESS: 'idp',
      BINNACLE_HOSTED_IDP_JWKS_URL: 'https://hosted.example.com/jwks',
      BINNACLE_HOSTED_IDP_ISSUER: 'https://hosted.example.com',
    });
    expect(boot.code).toBe(2);
    expect(boot.stderr).toContain('oidcClusterAccess');
  });
});
