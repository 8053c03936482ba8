import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registryConfig } from '../cluster/chart-sources.ts';
import { clusterBinaries } from '../cluster/paths.ts';
import { freePort } from '../cluster/ports.ts';
import { waitUntil } from '../cluster/wait.ts';
import type { RegistryTarget } from './oci-image.ts';

/** A registry of a test's own, with the one login it accepts when it wants basic auth. */
export interface TestRegistry extends RegistryTarget {
  /** host:port, as image references name it. */
  host: string;
  stop(): Promise<void>;
}

/**
 * The login of the basic-auth registry. distribution reads only bcrypt htpasswd entries; this one is the
 * bcrypt of `password` (cost 10), made once with Go's golang.org/x/crypto/bcrypt — Node has no bcrypt.
 */
export const registryLogin = {
  username: 'binnacle',
  password: 'pull-secret-password',
  htpasswd: 'binnacle:$2a$10$ig.nEP4TvmsWFenNU38VTOkph8pBGHQ/n4.zy8uOe//JGwuC.TBSC',
} as const;

/**
 * A CNCF distribution registry of the test's own on loopback, with basic auth (htpasswd) unless `basicAuth` is
 * false, its data in a temporary directory removed by `stop()` — a registry keeps deleted blobs on disk until
 * garbage-collected, so large test images go here rather than to the control plane's (anonymous) registry.
 */
export async function startRegistry({
  basicAuth = true,
}: {
  basicAuth?: boolean;
} = {}): Promise<TestRegistry> {
  const dir = await mkdtemp(join(tmpdir(), 'binnacle-auth-registry-'));
  const port = await freePort();
  const htpasswd = join(dir, 'htpasswd');
  await writeFile(htpasswd, `${registryLogin.htpasswd}\n`);
  const auth = ['auth:', '  htpasswd:', '    realm: binnacle-test', `    path: ${htpasswd}`];
  const config = [registryConfig(port, join(dir, 'data')).trimEnd(), ...(basicAuth ? auth : []), ''].join(
    '\n',
  );
  await writeFile(join(dir, 'config.yml'), config);
  let log = '';
  const child: ChildProcess = spawn((await clusterBinaries()).registry, ['serve', join(dir, 'config.yml')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntil(
      'the test registry',
      async () => {
        if (child.exitCode !== null) throw new Error(`registry exited: ${log}`);
        return (await fetch(`${url}/v2/`)).status === (basicAuth ? 401 : 200);
      },
      { timeoutMs: 15_000, intervalMs: 100 },
    );
  } catch (error) {
    child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    host: `127.0.0.1:${port}`,
    ...(basicAuth ? { username: registryLogin.username, password: registryLogin.password } : {}),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
