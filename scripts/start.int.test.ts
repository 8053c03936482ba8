import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import {
  freePort,
  groupAlive,
  isListening,
  readState,
  repoRoot,
  seedCluster,
  testCluster,
  waitUntil,
} from '@binnacle/testkit';
import { AppsV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const home = await mkdtemp(join(tmpdir(), 'binnacle-start-'));
afterAll(() => rm(home, { recursive: true, force: true }));

/** A home without ~/.kube/config or ~/.binnacle, so only what a test names configures the agent. */
function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  delete env.KUBECONFIG;
  delete env.BINNACLE_KUBECONFIG;
  delete env.BINNACLE_DEMO;
  return env;
}

/** Waits until the agent on `port` says it is healthy; the error quotes what npm start printed. */
async function agentAnswers(port: number, output: () => string, timeoutMs: number): Promise<void> {
  await waitUntil(
    'the agent started by npm start',
    async () => {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      return ((await res.json()) as { status: string }).status === 'healthy';
    },
    { timeoutMs, intervalMs: 250 },
  ).catch((error: Error) => {
    throw new Error(`${error.message}\nnpm start said:\n${output()}`);
  });
}

describe('npm start without a configured cluster', () => {
  it('starts the demo control plane (the demo profile) with the sample workloads, serves them, and stops everything on SIGTERM; a re-seed leaves what the user changed', async () => {
    const port = await freePort();
    const clusterDir = join(home, 'cluster');
    const env: NodeJS.ProcessEnv = {
      ...baseEnv(),
      // The same build cache: the demo's components are built once per machine.
      BINNACLE_CACHE_DIR: process.env.BINNACLE_CACHE_DIR ?? join(homedir(), '.cache/binnacle'),
      BINNACLE_CLUSTER_DIR: clusterDir,
      BINNACLE_CLUSTER_NODES: '2',
    };
    const started = Date.now();
    const child = spawn(
      process.execPath,
      [resolve(import.meta.dirname, 'start.ts'), '--port', String(port), '--no-browser'],
      { env, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const exited = new Promise<number>((r) => child.on('exit', (code) => r(code ?? -1)));
    try {
      await agentAnswers(port, () => stderr, 150_000);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.info(`npm start's demo, its components built already: the agent answered after ${seconds}s`);
      expect(stderr).toContain('no cluster configured: starting the local demo control plane');
      expect(stderr).toContain(`serving http://127.0.0.1:${port}`);
      const pods = (await (
        await fetch(`http://127.0.0.1:${port}/api/resources/pods?namespace=demo-shop`)
      ).json()) as { items: { metadata: { name: string } }[] };
      expect(pods.items.filter((p) => p.metadata.name.startsWith('storefront-'))).toHaveLength(3);
      expect(pods.items.filter((p) => p.metadata.name.startsWith('checkout-'))).toHaveLength(2);

      const state = await readState(clusterDir);
      if (!state) throw new Error('npm start left no state of its demo control plane');
      // The demo runs none of the test-only components.
      expect(state.profile).toBe('demo');
      expect(state.processes.map((p) => p.name)).not.toContain('registry');
      expect(state.processes.map((p) => p.name)).not.toContain('helm-controller');

      // What a user does in the UI, then a second `npm start` seeds the running demo again.
      const kc = new KubeConfig();
      kc.loadFromFile(state.kubeconfigs.admin);
      const core = kc.makeApiClient(CoreV1Api);
      const apps = kc.makeApiClient(AppsV1Api);
      const config = { namespace: 'demo-shop', name: 'storefront-config' };
      await core.patchNamespacedConfigMap({
        ...config,
        body: [{ op: 'replace', path: '/data/LOG_LEVEL', value: 'debug' }],
      });
      await apps.patchNamespacedDeployment({
        namespace: 'demo-shop',
        name: 'checkout',
        body: [{ op: 'replace', path: '/spec/replicas', value: 4 }],
      });
      // A Deployment of the user's that never gets ready (no node matches): the seed must not wait for it.
      await apps.createNamespacedDeployment({
        namespace: 'demo-shop',
        body: {
          metadata: { name: 'never-ready' },
          spec: {
            selector: { matchLabels: { app: 'never-ready' } },
            template: {
              metadata: { labels: { app: 'never-ready' } },
              spec: { nodeSelector: { nowhere: 'true' }, containers: [{ name: 'c', image: 'busybox' }] },
            },
          },
        },
      });
      const lines: string[] = [];
      const reseeded = Date.now();
      await seedCluster(state, (line) => lines.push(line));
      expect(Date.now() - reseeded).toBeLessThan(60_000);
      const said = lines.join('\n');
      expect(said).toContain('created 0 objects');
      expect(said).toMatch(/left \d+ objects that exist already as they are/);
      expect(said).toContain('demo-shop: ');
      expect(said).toContain('helm release demo-billing/billing exists, left as it is');
      expect(said).not.toContain('installed');
      expect((await core.readNamespacedConfigMap(config)).data?.LOG_LEVEL).toBe('debug');
      expect(
        (await apps.readNamespacedDeployment({ namespace: 'demo-shop', name: 'checkout' })).spec?.replicas,
      ).toBe(4);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stderr).toContain('local demo control plane stopped');
    expect(await readState(clusterDir)).toBeUndefined();
  }, 240_000);
});

/**
 * A fresh clone of the working tree (a shared git clone of HEAD with the tracked changes and new files of the
 * working tree copied over) whose node_modules is a hardlinked copy of this checkout's, the cheap stand-in for
 * `npm install`; the web build too, which bootstrap keeps when its source hash matches.
 */
async function freshClone(dir: string): Promise<void> {
  await run('git', ['clone', '--quiet', '--shared', repoRoot, dir]);
  const { stdout } = await run('git', ['ls-files', '--modified', '--others', '--exclude-standard', '-z'], {
    cwd: repoRoot,
  });
  for (const file of stdout.split('\0').filter((f) => f && existsSync(join(repoRoot, f)))) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await copyFile(join(repoRoot, file), join(dir, file));
  }
  for (const linked of [
    'node_modules',
    'packages/testkit/node_modules',
    'packages/web/node_modules',
    'packages/web/dist',
  ]) {
    if (existsSync(join(repoRoot, linked)))
      await run('cp', ['-al', join(repoRoot, linked), join(dir, linked)]);
  }
  await run('cp', [
    '-al',
    join(repoRoot, 'packages/web/src/api/generated'),
    join(dir, 'packages/web/src/api/'),
  ]);
}

describe('npm start with a kubeconfig, in a fresh clone', () => {
  it('builds nothing in Go and the agent answers', async () => {
    const work = await mkdtemp(join(tmpdir(), 'binnacle-fresh-'));
    try {
      const clone = join(work, 'clone');
      await freshClone(clone);
      const cache = join(work, 'cache');
      const goDirs = {
        GOCACHE: join(work, 'go/cache'),
        GOMODCACHE: join(work, 'go/mod'),
        GOPATH: join(work, 'go/path'),
      };
      await mkdir(cache);
      // A tripwire ahead of every Go on PATH: any `go` command npm start ran would leave its arguments here.
      const shim = join(work, 'shim');
      const calls = join(work, 'go-calls');
      await mkdir(shim);
      await writeFile(join(shim, 'go'), `#!/bin/sh\necho "$*" >> '${calls}'\nexit 1\n`);
      await chmod(join(shim, 'go'), 0o755);
      const port = await freePort();
      const env: NodeJS.ProcessEnv = {
        ...baseEnv(),
        ...goDirs,
        KUBECONFIG: testCluster().kubeconfigPath('admin'),
        BINNACLE_CACHE_DIR: cache,
        PATH: `${shim}:${process.env.PATH}`,
        // npm's own settings and package cache stay the machine's (helm comes from the npm package cache).
        NPM_CONFIG_USERCONFIG: join(homedir(), '.npmrc'),
        npm_config_cache: join(homedir(), '.npm'),
      };
      const started = Date.now();
      const child = spawn('npm', ['start', '--', '--port', String(port), '--no-browser'], {
        cwd: clone,
        env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      const collect = (c: Buffer) => {
        output += c.toString();
      };
      child.stdout.on('data', collect);
      child.stderr.on('data', collect);
      const exited = new Promise<void>((r) => child.on('exit', () => r()));
      try {
        await agentAnswers(port, () => output, 150_000);
        const seconds = (Date.now() - started) / 1000;
        console.info(
          `npm start in a fresh clone with a kubeconfig: the agent answered after ${seconds.toFixed(1)}s`,
        );
        expect(output).toContain(`serving http://127.0.0.1:${port}`);
      } finally {
        // npm, its shell and the agent: npm itself dies of the signal, the agent shuts down on it.
        if (child.pid) process.kill(-child.pid, 'SIGTERM');
      }
      await exited;
      const group = child.pid ?? 0;
      await waitUntil('npm start and its children to exit', () => Promise.resolve(!groupAlive(group)), {
        timeoutMs: 15_000,
      });
      expect(await isListening(port)).toBe(false);
      expect(output).not.toContain('build.sh');
      expect(existsSync(calls)).toBe(false);
      for (const dir of Object.values(goDirs)) expect(existsSync(dir)).toBe(false);
      expect((await readdir(cache)).filter((entry) => /^(go|cluster-)/.test(entry))).toEqual([]);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }, 180_000);
});
