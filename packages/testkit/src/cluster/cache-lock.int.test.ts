import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './paths.ts';

const run = promisify(execFile);

describe('the shared build cache', () => {
  it('takes two bootstraps fetching helm into one empty cache at once: both get the same working binary', async () => {
    const cache = await mkdtemp(join(tmpdir(), 'binnacle-cache-'));
    try {
      const env = { ...process.env, BINNACLE_CACHE_DIR: cache };
      const fetchHelm = () =>
        run('bash', [join(repoRoot, 'test/cluster/helm.sh')], { env, timeout: 120_000 });
      const [first, second] = await Promise.all([fetchHelm(), fetchHelm()]);
      const helm = first.stdout.trim();
      expect(second.stdout.trim()).toBe(helm);
      expect((await run(helm, ['version', '--short'])).stdout).toMatch(/^v4\./);
      // No half-written `.partial` directory is left behind by the one that waited.
      expect((await readdir(cache)).sort()).toEqual(['build.lock', 'helm-2.0.1']);
    } finally {
      await rm(cache, { recursive: true, force: true });
    }
  }, 150_000);
});
