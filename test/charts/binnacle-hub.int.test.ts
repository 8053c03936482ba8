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
  spec?: { template: { spec: { containers: { env: EnvVar[] }[] } } };
}

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
    const rendered = await template([]);
    if (!('objects' in rendered)) throw new Error(rendered.error);
    expect(rendered.objects.map((o) => o.kind).sort()).toEqual([
      'Deployment',
      'PersistentVolumeClaim',
      'Service',
      'ServiceAccount',
    ]);
    expect(hubEnv(rendered.objects)).toMatchObject({
      BINNACLE_OIDC_USE_REFRESH_TOKEN: 'true',
      BINNACLE_MAX_INACTIVE: '24h',
      BINNACLE_SESSION_LIFETIME: '168h',
      BINNACLE_OIDC_GROUPS_CLAIM: 'groups',
    });
  });

  it('renders OIDC settings, with the client secret read from the existing secret key client-secret', async () => {
    const rendered = await template([
      ...oidc,
      'auth.oidc.clusterAccess=idp',
      'auth.oidc.scopes={groups,offline_access}',
    ]);
    if (!('objects' in rendered)) throw new Error(rendered.error);
    const container = containerOf(rendered.objects);
    expect(hubEnv(rendered.objects)).toMatchObject({
      BINNACLE_OIDC_ISSUER: 'https://idp.example.com/realms/acme',
      BINNACLE_OIDC_CLUSTER_ACCESS: 'idp',
      BINNACLE_OIDC_SCOPES: 'groups,offline_access',
      BINNACLE_OIDC_DEFAULT_ROLE: 'member',
    });
    expect(container.env.find((e) => e.name === 'BINNACLE_OIDC_CLIENT_SECRET')?.valueFrom).toEqual({
      secretKeyRef: { name: 'binnacle-oidc', key: 'client-secret' },
    });
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
    ['an unknown role', ['auth.oidc.defaultRole=admin'], /defaultRole/],
  ];
  for (const [name, sets, message] of refusals) {
    it(`refuses ${name}`, async () => {
      const rendered = await template(sets);
      expect('error' in rendered ? rendered.error : 'rendered').toMatch(message);
    });
  }

  it('renders maxInactive: 19m, which the hub then refuses at boot naming the setting', async () => {
    const rendered = await template(['maxInactive=19m']);
    if (!('objects' in rendered)) throw new Error(rendered.error);
    const boot = await bootHub(hubEnv(rendered.objects));
    expect(boot.code).toBe(2);
    expect(boot.stderr).toMatch(/BINNACLE_MAX_INACTIVE|maxInactive/);
    expect(boot.stderr).toContain('20m');
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
