import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type BinnacleRun,
  isListening,
  killBinnacles,
  repoRoot,
  runBinnacle,
  testCluster,
  waitUntil,
} from '@binnacle/testkit';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

const cluster = testCluster();
const dataDir = await mkdtemp(join(tmpdir(), 'binnacle-cli-'));
// A failed assertion must not leave an agent holding the port for the next run.
afterEach(killBinnacles);
afterAll(() => rm(dataDir, { recursive: true, force: true }));
// After a signal the agent closes its server and watches (at most 10 s by its own rule).
const stopsWithinMs = 15_000;

const binnacle = (args: string[], env: NodeJS.ProcessEnv = {}, script?: string) =>
  runBinnacle(
    args,
    { HOME: dataDir, KUBECONFIG: cluster.kubeconfigPath(), BINNACLE_DATA_DIR: dataDir, ...env },
    [],
    script,
  );

async function serves(port: number, run: BinnacleRun): Promise<void> {
  await waitUntil(
    `binnacle agent on port ${port}`,
    async () => {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      return ((await res.json()) as { status: string }).status === 'healthy';
    },
    { timeoutMs: 30_000 },
  );
  expect(run.stderr()).toContain(
    `serving http://127.0.0.1:${port} for context "binnacle-local-binnacle-admin"`,
  );
}

describe('the release bundle (npm run build:cli)', () => {
  it('serves the same agent: its pages, its API and its refusals', async () => {
    execFileSync('npm', ['run', '--silent', 'build:cli'], { cwd: repoRoot, stdio: 'ignore' });
    const run = binnacle(['agent', '--port', '9393', '--no-browser'], {}, 'packages/cli/dist/binnacle.js');
    await serves(9393, run);
    const page = await fetch('http://127.0.0.1:9393/resources/pods');
    expect(await page.text()).toContain('<meta name="binnacle-ui" content="agent" />');
    const pods = await fetch('http://127.0.0.1:9393/api/resources/pods?limit=1');
    expect(await pods.json()).toMatchObject({ kind: 'Pod', items: expect.any(Array) });
    // Validators compile when a route is first used: the first refusal is as precise as any later one.
    const refused = await fetch('http://127.0.0.1:9393/api/resources/pods?limit=many');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      code: 'invalid_request',
      error: expect.stringMatching(/limit/),
    });
    run.child.kill('SIGTERM');
    expect(await run.exit(stopsWithinMs)).toBe(0);
  }, 120_000);
});

describe('binnacle agent', () => {
  it('serves on --port 9391, syncs, and exits 0 on SIGTERM leaving the port free', async () => {
    const run = binnacle(['agent', '--port', '9391', '--no-browser']);
    await serves(9391, run);
    await waitUntil(
      'the sync progress lines',
      () => Promise.resolve(run.stderr().includes('custom tier synced')),
      { timeoutMs: 10_000 },
    );
    expect(run.stderr()).toMatch(/core tier synced \(\d+ kinds, \d+ ms\)/);
    run.child.kill('SIGTERM');
    expect(await run.exit(stopsWithinMs)).toBe(0);
    expect(await isListening(9391)).toBe(false);
  });

  it('serves on 9280 by default', async () => {
    const run = binnacle(['agent']);
    await serves(9280, run);
    run.child.kill('SIGINT');
    expect(await run.exit(stopsWithinMs)).toBe(0);
  });

  it('in cloud mode, never writes the cluster token to its log (a hub that cannot be reached, every request logged)', async () => {
    const token = `bnc_${'Q'.repeat(43)}abcdef`;
    const run = binnacle([
      'agent',
      '--port',
      '9392',
      '--no-browser',
      '--debug-events',
      '--cloud-url',
      'http://127.0.0.1:9',
      '--cluster-token',
      token,
    ]);
    await serves(9392, run);
    await waitUntil(
      'the tunnel to report its failed dial',
      () => Promise.resolve(run.stderr().includes('hub tunnel')),
      {
        timeoutMs: 10_000,
      },
    );
    // Logged, with --debug-events; refused, as every direct request but /api/health is in cloud mode.
    expect((await fetch('http://127.0.0.1:9392/api/config')).status).toBe(401);
    expect(run.stderr()).toContain(
      'binnacle agent: cloud mode: the API is served only through http://127.0.0.1:9/c/<cluster_id>/; http://127.0.0.1:9392 answers only /api/health',
    );
    run.child.kill('SIGTERM');
    expect(await run.exit(stopsWithinMs)).toBe(0);
    for (const output of [run.stderr(), run.stdout()]) {
      expect(output).not.toContain(token);
      expect(output).not.toContain(token.slice(4, 24));
    }
  });

  it('exits 2 naming a bad flag, and 1 naming a missing kubeconfig', async () => {
    const badFlag = binnacle(['agent', '--port', 'eighty']);
    expect(await badFlag.exit()).toBe(2);
    expect(badFlag.stderr()).toBe(
      'binnacle agent: --port: "eighty" is not a port number (1-65535)\nrun "binnacle agent --help" for the flags\n',
    );
    const noCluster = binnacle(['agent', '--kubeconfig', join(dataDir, 'missing')]);
    expect(await noCluster.exit()).toBe(1);
    expect(noCluster.stderr()).toBe(
      `binnacle agent: kubeconfig ${join(dataDir, 'missing')} does not exist\n`,
    );
    const unknownCommand = binnacle(['agnet']);
    expect(await unknownCommand.exit()).toBe(2);
  });

  it('prints --help with exit 0', async () => {
    const help = binnacle(['agent', '--help']);
    expect(await help.exit()).toBe(0);
    expect(help.stdout()).toMatch(/^usage: binnacle agent \[flags\]/);
  });
});

describe('binnacle desktop', () => {
  it('prints its flags, the agent flags included', async () => {
    const help = binnacle(['desktop', '--help']);
    expect(await help.exit()).toBe(0);
    expect(help.stdout()).toMatch(/^usage: binnacle desktop \[flags\]/);
    for (const flag of ['--downloads-dir DIR', '--update-url URL', '--port N', '--kubeconfig PATH'])
      expect(help.stdout()).toContain(flag);
  });

  it('exits 2 for a listener beyond loopback and for cloud mode', async () => {
    const wide = binnacle(['desktop', '--listen-address', '0.0.0.0']);
    expect(await wide.exit()).toBe(2);
    expect(wide.stderr()).toBe(
      'binnacle desktop: desktop mode listens on loopback only: --listen-address 0.0.0.0 is not 127.0.0.1, ::1 or localhost\n',
    );
    const cloud = binnacle(['desktop', '--cloud-url', 'http://127.0.0.1:9', '--cluster-token', 'bnc_x']);
    expect(await cloud.exit()).toBe(2);
    expect(cloud.stderr()).toContain('--cloud-url is not allowed');
  });

  it('serves the agent with the desktop helpers on', async () => {
    const downloads = join(dataDir, 'desktop-downloads');
    const run = binnacle(['desktop', '--port', '9395', '--no-browser', '--downloads-dir', downloads]);
    await serves(9395, run);
    const saved = await fetch('http://127.0.0.1:9395/api/desktop/save-file', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ filename: 'notes.txt', content: 'hello' }),
    });
    expect(await saved.json()).toEqual({
      desktop: true,
      path: join(downloads, 'notes.txt'),
      name: 'notes.txt',
      size: 5,
    });
    run.child.kill('SIGTERM');
    expect(await run.exit(stopsWithinMs)).toBe(0);
  });
});
