import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, copyFile, mkdir, mkdtemp, readdir, readFile, realpath, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  type BinnacleRun,
  freePort,
  helmBinary,
  killBinnacles,
  runCommand,
  startRegistry,
  type TestRegistry,
  testCluster,
  waitUntil,
} from '@binnacle/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildImage } from '../../../scripts/build-image.ts';
import { buildSingleExecutable } from '../../../scripts/build-sea.ts';

const cluster = testCluster();
const work = await mkdtemp(join(tmpdir(), 'binnacle-sea-'));
const executable = join(work, 'build', 'binnacle');
/** File systems mounted under `work`: unmounted before it is removed. */
const mounted: string[] = [];
afterEach(killBinnacles);
afterAll(async () => {
  for (const path of mounted) execFileSync('umount', ['--lazy', path]);
  await rm(work, { recursive: true, force: true });
});

beforeAll(async () => {
  await mkdir(join(work, 'build'));
  await buildSingleExecutable(executable);
}, 240_000);

async function healthy(url: string, run: BinnacleRun, expected: Record<string, unknown>): Promise<void> {
  try {
    await waitUntil(
      `${url}/api/health`,
      async () => {
        if (run.child.exitCode !== null) throw new Error(`exited ${run.child.exitCode}`);
        const res = await fetch(`${url}/api/health`).catch(() => undefined);
        if (!res?.ok) return false;
        expect(await res.json()).toMatchObject(expected);
        return true;
      },
      { timeoutMs: 60_000 },
    );
  } catch (error) {
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}\n${run.stderr().slice(-4000)}`,
    );
  }
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A directory holding no `node`: the executable must not need one. */
async function pathWithoutNode(): Promise<string> {
  const bin = join(work, 'empty-bin');
  await mkdir(bin, { recursive: true });
  return bin;
}

describe('the single executable (npm run build:sea)', () => {
  it('runs from a clean directory with no node on PATH: the agent serves its pages and API, unpacked once', async () => {
    const dir = await mkdtemp(join(work, 'clean-'));
    const home = join(dir, 'home');
    await mkdir(home);
    const binary = join(dir, 'binnacle');
    await copyFile(executable, binary);
    const port = await freePort();
    const env = { PATH: await pathWithoutNode(), HOME: home, KUBECONFIG: cluster.kubeconfigPath() };
    const run = runCommand(binary, ['agent', '--port', String(port), '--no-browser'], env);
    const url = `http://127.0.0.1:${port}`;
    await healthy(url, run, { status: 'healthy' });
    // The process is the executable itself, not a node found somewhere.
    expect(await realpath(`/proc/${run.child.pid}/exe`)).toBe(binary);
    // Restarted in place with two malloc arenas (ADR 0132), its arguments as given.
    const environ = (await readFile(`/proc/${run.child.pid}/environ`, 'utf8')).split('\0');
    expect(environ).toContain('MALLOC_ARENA_MAX=2');
    const cmdline = (await readFile(`/proc/${run.child.pid}/cmdline`, 'utf8')).split('\0').filter(Boolean);
    expect(cmdline).toEqual([binary, 'agent', '--port', String(port), '--no-browser']);
    const page = await fetch(`${url}/resources/pods`);
    expect(await page.text()).toContain('<meta name="binnacle-ui" content="agent" />');
    const pods = await fetch(`${url}/api/resources/pods?limit=1`);
    expect(await pods.json()).toMatchObject({ kind: 'Pod', items: expect.any(Array) });
    run.child.kill('SIGTERM');
    expect(await run.exit(15_000)).toBe(0);
    // Unpacked into the user's cache, a directory only they may write to, and reused by the next start.
    const unpacked = join(home, '.cache', 'binnacle', 'sea');
    const [digest, ...others] = await readdir(unpacked);
    expect(others).toEqual([]);
    expect(((await stat(unpacked)).mode & 0o777).toString(8)).toBe('700');
    const entry = join(unpacked, digest as string, 'dist', 'binnacle.js');
    const firstUnpack = (await stat(entry)).mtimeMs;
    const help = runCommand(binary, ['agent', '--help'], env);
    expect(await help.exit()).toBe(0);
    expect(help.stdout()).toMatch(/^usage: binnacle agent \[flags\]/);
    expect((await stat(entry)).mtimeMs).toBe(firstUnpack);
  }, 120_000);

  it('never loads code from a cache directory other users may write to: it unpacks under the temp directory instead', async () => {
    const dir = await mkdtemp(join(work, 'shared-'));
    const shared = join(dir, 'cache', 'binnacle', 'sea');
    await mkdir(shared, { recursive: true });
    await chmod(shared, 0o777);
    const temp = join(dir, 'tmp');
    await mkdir(temp);
    const env = { PATH: await pathWithoutNode(), XDG_CACHE_HOME: join(dir, 'cache'), TMPDIR: temp };
    const help = runCommand(executable, ['--help'], env);
    expect(await help.exit()).toBe(0);
    expect(await readdir(shared)).toEqual([]);
    const [digest] = await readdir(join(temp, `binnacle-sea-${process.getuid?.()}`));
    expect(await readdir(join(temp, `binnacle-sea-${process.getuid?.()}`, digest as string))).toContain(
      'dist',
    );
  });
});

describe('binnacle desktop in the single executable', () => {
  it('checks a release manifest and replaces its own file with the verified build, which then runs', async () => {
    const dir = await mkdtemp(join(work, 'desktop-'));
    const binary = join(dir, 'binnacle');
    await copyFile(executable, binary);
    // The next build: the same program with bytes appended after the ELF image (ignored by the loader), so the
    // replaced file is told apart from the one that ran, and still runs.
    const next = Buffer.concat([await readFile(executable), Buffer.from('\nnext build\n')]);
    const releases = createServer((request, response) => {
      if (request.url === '/manifest.json') {
        const asset = { url: 'builds/binnacle', size: next.length, sha256: sha256(next) };
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ version: '99.0.0', assets: { 'linux-x64': asset } }));
      } else if (request.url === '/builds/binnacle') response.end(next);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => releases.listen(0, '127.0.0.1', resolve));
    const releasesPort = (releases.address() as AddressInfo).port;
    try {
      const port = await freePort();
      const home = join(dir, 'home');
      await mkdir(home);
      const run = runCommand(
        binary,
        [
          'desktop',
          '--port',
          String(port),
          '--no-browser',
          '--update-url',
          `http://127.0.0.1:${releasesPort}/manifest.json`,
        ],
        { PATH: await pathWithoutNode(), HOME: home, KUBECONFIG: cluster.kubeconfigPath() },
      );
      const url = `http://127.0.0.1:${port}`;
      await healthy(url, run, { status: 'healthy' });
      const post = async (path: string) => {
        const res = await fetch(`${url}/api/desktop/${path}`, { method: 'POST' });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      };
      expect(await post('update')).toMatchObject({
        status: 200,
        body: { available: true, latest: '99.0.0' },
      });
      expect(await post('update/apply')).toMatchObject({
        status: 200,
        body: { applied: true, version: '99.0.0', restartRequired: true },
      });
      expect(sha256(await readFile(binary))).toBe(sha256(next));
      expect(((await stat(binary)).mode & 0o777).toString(8)).toBe('755');
      run.child.kill('SIGTERM');
      expect(await run.exit(15_000)).toBe(0);
      const replaced = runCommand(binary, ['--help'], { PATH: await pathWithoutNode(), HOME: home });
      expect(await replaced.exit()).toBe(0);
      expect(replaced.stdout()).toContain('usage: binnacle <command>');
    } finally {
      releases.close();
    }
  }, 120_000);
});

interface OciManifest {
  config: { digest: string };
  layers: { digest: string; size: number; mediaType: string }[];
}

/** Pulls an image from the registry and unpacks its layers in order into `rootfs`, as a container runtime does. */
async function pullRootfs(registry: TestRegistry, name: string, tag: string, rootfs: string) {
  const accept =
    'application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json';
  const manifestResponse = await fetch(`${registry.url}/v2/${name}/manifests/${tag}`, {
    headers: { accept },
  });
  expect(manifestResponse.status).toBe(200);
  const manifest = (await manifestResponse.json()) as OciManifest;
  const blob = (digest: string) => fetch(`${registry.url}/v2/${name}/blobs/${digest}`);
  const config = (await (await blob(manifest.config.digest)).json()) as {
    config: { User?: string; Entrypoint?: string[]; Env?: string[] };
  };
  await mkdir(rootfs, { recursive: true });
  for (const layer of manifest.layers) {
    const response = await blob(layer.digest);
    const tar = spawn('tar', ['-x', '-z', '-p', '-C', rootfs], { stdio: ['pipe', 'ignore', 'inherit'] });
    const done = new Promise((resolve) => tar.once('exit', resolve));
    await pipeline(response.body as unknown as NodeJS.ReadableStream, tar.stdin);
    expect(await done).toBe(0);
  }
  return {
    config: config.config,
    compressedBytes: manifest.layers.reduce((sum, layer) => sum + layer.size, 0),
  };
}

describe('the container image (scripts/build-image.ts, image/Containerfile)', () => {
  let registry: TestRegistry;
  beforeAll(async () => {
    registry = await startRegistry({ basicAuth: false });
  });
  afterAll(() => registry.stop());

  it('is built without a daemon, pushed, pulled back and run under chroot: the hub and the agent serve /api/health', async () => {
    const ref = `${registry.host}/binnacle:test`;
    const built = buildImage({
      tag: 'localhost/binnacle:test',
      sea: executable,
      helm: await helmBinary(),
      storage: join(work, 'buildah'),
      push: { ref, insecure: true },
    });
    const rootfs = join(work, 'rootfs');
    const pulled = await pullRootfs(registry, 'binnacle', 'test', rootfs);
    expect(pulled.config).toMatchObject({
      User: '65532:65532',
      Entrypoint: ['/usr/local/bin/binnacle'],
    });
    // No shell and no package manager: only the executable, helm, the C runtime and three identity files.
    const files = execFileSync('find', [rootfs, '-type', 'f', '-printf', '/%P\\n'], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .sort();
    expect(files.filter((file) => !/^\/(lib|lib64|usr\/lib)\//.test(file))).toEqual([
      '/etc/group',
      '/etc/nsswitch.conf',
      '/etc/passwd',
      '/usr/local/bin/binnacle',
      '/usr/local/bin/helm',
    ]);
    expect(files.some((file) => /\/(sh|bash|apt|dpkg|apk)$/.test(file))).toBe(false);
    expect(((await stat(join(rootfs, 'tmp'))).mode & 0o7777).toString(8)).toBe('1777');
    const sizes = {
      compressedMB: Math.round(pulled.compressedBytes / 1024 / 1024),
      filesMB: Math.round(built.rootfsBytes / 1024 / 1024),
    };
    console.info(`image size: ${sizes.compressedMB} MB to pull, ${sizes.filesMB} MB unpacked`);
    expect(sizes.compressedMB).toBeLessThan(120);

    // Every container runtime mounts /proc (Node reads its own memory there); chroot does not.
    await mkdir(join(rootfs, 'proc'));
    execFileSync('mount', ['-t', 'proc', 'proc', join(rootfs, 'proc')]);
    mounted.push(join(rootfs, 'proc'));
    await copyFile(cluster.kubeconfigPath(), join(rootfs, 'tmp', 'kubeconfig'));
    await chmod(join(rootfs, 'tmp', 'kubeconfig'), 0o644);
    const env = { PATH: '/usr/local/bin', HOME: '/tmp' };
    // The image's PATH is the child's: chroot itself is found on this machine's.
    const chrootBinary = execFileSync('sh', ['-c', 'command -v chroot'], { encoding: 'utf8' }).trim();
    const inImage = (program: string, args: string[]) =>
      runCommand(chrootBinary, ['--userspec=65532:65532', rootfs, program, ...args], env);
    const chroot = (args: string[]) => inImage('/usr/local/bin/binnacle', args);
    const hubPort = await freePort();
    const hub = chroot(['hub', '--port', String(hubPort), '--data-dir', '/tmp/hub']);
    await healthy(`http://127.0.0.1:${hubPort}`, hub, { status: 'ok', database: 'sqlite' });
    const agentPort = await freePort();
    const agent = chroot([
      'agent',
      '--port',
      String(agentPort),
      '--no-browser',
      '--kubeconfig',
      '/tmp/kubeconfig',
      '--data-dir',
      '/tmp/agent',
    ]);
    await healthy(`http://127.0.0.1:${agentPort}`, agent, { status: 'healthy' });
    const pods = await fetch(`http://127.0.0.1:${agentPort}/api/resources/pods?limit=1`);
    expect(await pods.json()).toMatchObject({ kind: 'Pod' });
    const helm = inImage('/usr/local/bin/helm', ['version']);
    expect(await helm.exit()).toBe(0);
    expect(helm.stdout()).toMatch(/v\d+\.\d+\.\d+/);
    for (const run of [hub, agent]) {
      run.child.kill('SIGTERM');
      expect(await run.exit(15_000)).toBe(0);
    }
    expect(await readFile(join(rootfs, 'etc', 'passwd'), 'utf8')).toContain('binnacle:x:65532:65532');
  }, 300_000);
});
