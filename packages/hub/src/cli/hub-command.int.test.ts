import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, killBinnacles, runBinnacle, waitUntil } from '@binnacle/testkit';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { hubOptions } from '../config/hub-options.ts';

// The hub through the real `binnacle` command: only SQLite is needed, so it runs the same in both hub projects.
const home = await mkdtemp(join(tmpdir(), 'binnacle-hub-cli-'));
const password = 'correct horse battery staple';

// A failed assertion must not leave a hub holding its port or its SQLite file.
afterEach(killBinnacles);
afterAll(() => rm(home, { recursive: true, force: true }));

let runs = 0;
const binnacle = (args: string[], env: NodeJS.ProcessEnv = {}) => {
  runs += 1;
  return runBinnacle(args, { HOME: home, BINNACLE_HUB_DATA_DIR: join(home, `data-${runs}`), ...env });
};

describe('binnacle hub', () => {
  it.each([
    { name: '--max-inactive 10m', args: ['--max-inactive', '10m'], env: {}, names: 'maxInactive' },
    {
      name: 'BINNACLE_SESSION_LIFETIME=7d',
      args: [],
      env: { BINNACLE_SESSION_LIFETIME: '7d' },
      names: 'BINNACLE_SESSION_LIFETIME',
    },
    {
      name: 'PostgreSQL without a secret key',
      args: ['--database-url', 'postgres://127.0.0.1:1/x'],
      env: {},
      names: 'secretKey',
    },
    {
      name: 'a secret key shorter than 32 bytes',
      args: [],
      env: { BINNACLE_SECRET_KEY: 'ab'.repeat(16) },
      names: 'BINNACLE_SECRET_KEY',
    },
    {
      name: 'a break-glass email without a password',
      args: ['--break-glass-email', 'admin@example.com'],
      env: {},
      names: 'breakGlassEmail',
    },
    { name: 'an unknown flag', args: ['--max-inactiv', '1h'], env: {}, names: '--max-inactiv' },
  ])('exits 2 on $name, naming the setting', async ({ args, env, names }) => {
    const run = binnacle(['hub', ...args], env);
    expect(await run.exit()).toBe(2);
    expect(run.stderr()).toMatch(/^binnacle hub: /);
    expect(run.stderr()).toContain(names);
    expect(run.stderr()).toContain('run "binnacle hub --help" for the settings');
  });

  it('exits 1 when the configured PostgreSQL server cannot be reached', async () => {
    const run = binnacle(['hub', '--database-url', 'postgres://127.0.0.1:1/x'], {
      BINNACLE_SECRET_KEY: 'ab'.repeat(32),
    });
    expect(await run.exit(20_000)).toBe(1);
    expect(run.stderr()).toContain('database postgres://127.0.0.1:1/x could not be opened');
  });

  it('serves on SQLite, signs the break-glass admin in over HTTP, logs no secret and stops on SIGTERM', async () => {
    const port = await freePort();
    const origin = `http://localhost:${port}`;
    const run = binnacle(
      [
        'hub',
        '--port',
        String(port),
        '--listen-address',
        '127.0.0.1',
        '--break-glass-email',
        'admin@example.com',
        // Request logging on, so the test proves the log keeps secrets out even when it says the most.
        '--debug-requests',
      ],
      { BINNACLE_BREAK_GLASS_PASSWORD: password },
    );
    const url = (path: string) => `http://127.0.0.1:${port}${path}`;
    await waitUntil(
      `binnacle hub on port ${port}`,
      async () => {
        if (run.child.exitCode !== null) throw new Error(`exited ${run.child.exitCode}:\n${run.stderr()}`);
        return (await fetch(url('/api/health'), { signal: AbortSignal.timeout(2000) })).ok;
      },
      { timeoutMs: 20_000 },
    );

    const health = await fetch(url('/api/health'));
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', database: 'sqlite', breakGlass: true });
    expect(run.stderr()).toContain(`serving ${origin} on 127.0.0.1:${port} (sqlite `);

    const login = await fetch(url('/api/auth/break-glass/login'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ email: 'admin@example.com', password }),
      signal: AbortSignal.timeout(5000),
    });
    expect(login.status, await login.clone().text()).toBe(200);
    expect(await login.json()).toMatchObject({ user: { email: 'admin@example.com' }, role: 'owner' });
    const setCookie = login.headers.getSetCookie().find((c) => c.startsWith('binnacle_session='));
    expect(setCookie, login.headers.getSetCookie().join('\n')).toBeDefined();
    const cookie = (setCookie as string).slice('binnacle_session='.length).split(';')[0] as string;
    expect(cookie.length).toBeGreaterThan(20);
    // Plain http on localhost: a cookie the browser keeps, so not Secure.
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).not.toMatch(/;\s*Secure/i);

    const account = await fetch(url('/api/account'), {
      headers: { cookie: `binnacle_session=${cookie}` },
      signal: AbortSignal.timeout(5000),
    });
    expect(account.status).toBe(200);

    run.child.kill('SIGTERM');
    expect(await run.exit()).toBe(0);
    const log = run.stderr();
    expect(log).toContain('SIGTERM, shutting down');
    expect(log).toContain('/api/auth/break-glass/login');
    expect(log).not.toContain(password);
    expect(log).not.toContain(cookie);
  }, 45_000);

  it('names the redirect URI the IdP client must list, built from the public URL', async () => {
    const port = await freePort();
    // Discovery is retried in the background: the hub starts while the IdP is unreachable.
    const run = binnacle(
      [
        'hub',
        '--port',
        String(port),
        '--oidc-issuer',
        'http://127.0.0.1:1/realms/acme',
        '--oidc-client-id',
        'binnacle',
      ],
      { BINNACLE_OIDC_CLIENT_SECRET: 'client-secret-value' },
    );
    const line = `the IdP client must list the redirect URI http://localhost:${port}/api/auth/oidc/callback exactly`;
    await waitUntil(
      'the OIDC line of the start banner',
      () => {
        if (run.child.exitCode !== null) throw new Error(`exited ${run.child.exitCode}:\n${run.stderr()}`);
        return Promise.resolve(run.stderr().includes(line));
      },
      { timeoutMs: 20_000 },
    );
    expect(run.stderr()).toContain('OIDC sign-in at http://127.0.0.1:1/realms/acme as client binnacle');
    run.child.kill('SIGTERM');
    expect(await run.exit()).toBe(0);
    expect(run.stderr()).not.toContain('client-secret-value');
  }, 45_000);

  it('prints --help with exit 0, listing every flag and its variable', async () => {
    const run = binnacle(['hub', '--help']);
    expect(await run.exit()).toBe(0);
    expect(run.stdout()).toMatch(/^usage: binnacle hub \[flags\]/);
    for (const option of hubOptions) {
      expect(run.stdout()).toContain(`--${option.flag}`);
      expect(run.stdout()).toContain(option.env);
    }
    expect(run.stderr()).toBe('');
  });
});
