import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type BinnacleRun,
  freePort,
  killBinnacles,
  largeLayer,
  layer,
  processMemory,
  pushImage,
  runBinnacle,
  startRegistry,
  type TestRegistry,
  testCluster,
  waitUntil,
} from '@binnacle/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositoryName } from '../../testing/images.ts';

/**
 * The done-when check of the image filesystem: an image of over 500 MB is inspected by an agent running as its
 * own process while its resident memory is measured. The layer is random (incompressible) bytes, generated
 * and pushed as a stream, and removed from disk and from the registry afterwards.
 */
const imageBytes = 520 * 1024 * 1024;
const allowedGrowthMB = 50;
const repository = repositoryName('large');
let registry: TestRegistry;
let image: string;
let dir: string;
let port: number;
let agent: BinnacleRun;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'binnacle-large-image-'));
  // A registry of this file's own: its directory goes with it (a registry keeps deleted blobs on disk).
  registry = await startRegistry({ basicAuth: false });
  const { host } = registry;
  image = `${host}/${repository}:1`;
  const big = await largeLayer(join(dir, 'layer.tar.gz'), 'data/blob.bin', imageBytes);
  const base = layer([{ path: 'etc/os-release', content: 'ID=large\n' }]);
  await pushImage(registry, repository, '1', [base, big]);
  await rm(big.file as string);
  port = await freePort();
  const cluster = testCluster();
  agent = runBinnacle(['agent', '--port', String(port), '--no-browser'], {
    HOME: dir,
    KUBECONFIG: cluster.kubeconfigPath(),
    BINNACLE_DATA_DIR: dir,
    BINNACLE_IMAGE_CACHE_DIR: join(dir, 'cache'),
  });
  await waitUntil(
    'binnacle agent synced',
    async () => {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      return ((await res.json()) as { status: string }).status === 'healthy';
    },
    { timeoutMs: 60_000, intervalMs: 200 },
  );
}, 180_000);

afterAll(async () => {
  if (agent?.child.exitCode === null) {
    agent.child.kill('SIGTERM');
    await agent.exit(15_000).catch(() => killBinnacles());
  }
  await registry?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a 520 MB image', () => {
  it(`is inspected with the agent's resident memory growing by less than ${allowedGrowthMB} MB`, async () => {
    const pid = agent.child.pid as number;
    const get = (route: string, target: string, extra = '') =>
      fetch(`http://127.0.0.1:${port}/api/images/${route}?image=${encodeURIComponent(target)}${extra}`);
    // The baseline is the agent cold: healthy, no image inspected yet. (The layer streams' spent chunks are
    // collected as they go — young-garbage.ts — so V8's 64 MB of external-memory headroom is never taken.)
    const before = await processMemory(pid);
    // Resets VmHWM to the current RSS: what it reads afterwards is the peak of the inspection alone.
    await writeFile(`/proc/${pid}/clear_refs`, '5');
    const started = Date.now();
    const res = await get('inspect', image);
    const body = (await res.json()) as { totalSize: number; totalFiles: number };
    const after = await processMemory(pid);
    const growthMB = after.peakMB - before.rssMB;
    process.stderr.write(
      `[images] inspected ${(imageBytes / 2 ** 20).toFixed(0)} MiB in ${Date.now() - started} ms: RSS ${before.rssMB.toFixed(1)} MB before, peak ${after.peakMB.toFixed(1)} MB during (+${growthMB.toFixed(1)} MB)\n`,
    );
    expect(res.status).toBe(200);
    expect(body.totalSize).toBe(imageBytes + 'ID=large\n'.length);
    expect(body.totalFiles).toBe(2);
    expect(growthMB).toBeLessThan(allowedGrowthMB);
    // Served from the cache now, and refused by the default cap of 50 MiB.
    const file = await get('file', image, '&path=/data/blob.bin');
    expect(file.status).toBe(413);
    expect(await file.json()).toMatchObject({ code: 'image_file_too_large' });
  }, 120_000);
});
