import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, readState, waitUntil } from '@binnacle/testkit';
import { afterAll, describe, expect, it } from 'vitest';

const home = await mkdtemp(join(tmpdir(), 'binnacle-start-'));
afterAll(() => rm(home, { recursive: true, force: true }));

describe('npm start without a configured cluster', () => {
  it('starts the demo control plane with the sample workloads, serves them, and stops everything on SIGTERM', async () => {
    const port = await freePort();
    const clusterDir = join(home, 'cluster');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      // A home without ~/.kube/config, but the same build cache (the control plane is built once per machine).
      HOME: home,
      BINNACLE_CACHE_DIR: process.env.BINNACLE_CACHE_DIR ?? join(homedir(), '.cache/binnacle'),
      BINNACLE_CLUSTER_DIR: clusterDir,
      BINNACLE_CLUSTER_NODES: '2',
    };
    delete env.KUBECONFIG;
    delete env.BINNACLE_KUBECONFIG;
    const child = spawn(
      process.execPath,
      [resolve(import.meta.dirname, 'start.ts'), '--port', String(port), '--no-browser'],
      {
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const exited = new Promise<number>((r) => child.on('exit', (code) => r(code ?? -1)));
    try {
      await waitUntil(
        'the agent started by npm start',
        async () => {
          const res = await fetch(`http://127.0.0.1:${port}/api/health`);
          return ((await res.json()) as { status: string }).status === 'healthy';
        },
        { timeoutMs: 120_000, intervalMs: 500 },
      ).catch((error: Error) => {
        throw new Error(`${error.message}\nnpm start said:\n${stderr}`);
      });
      expect(stderr).toContain('no cluster configured: starting the local demo control plane');
      expect(stderr).toContain(`serving http://127.0.0.1:${port}`);
      const pods = (await (
        await fetch(`http://127.0.0.1:${port}/api/resources/pods?namespace=demo-shop`)
      ).json()) as { items: { metadata: { name: string } }[] };
      expect(pods.items.filter((p) => p.metadata.name.startsWith('storefront-'))).toHaveLength(3);
      expect(pods.items.filter((p) => p.metadata.name.startsWith('checkout-'))).toHaveLength(2);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stderr).toContain('local demo control plane stopped');
    expect(await readState(clusterDir)).toBeUndefined();
  }, 180_000);
});
