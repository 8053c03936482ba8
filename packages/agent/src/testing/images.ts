import { randomBytes } from 'node:crypto';
import {
  layer,
  type PushedManifest,
  pushImage,
  pushIndex,
  type RegistryTarget,
  testCluster,
} from '@binnacle/testkit';
import { CoreV1Api } from '@kubernetes/client-node';

/** The control plane's own registry: anonymous, on loopback. */
export function anonymousRegistry(): RegistryTarget & { host: string } {
  const port = testCluster().state.ports.registry;
  return { url: `http://127.0.0.1:${port}`, host: `127.0.0.1:${port}` };
}

/** A repository name of this run, so files and reruns never share one. */
export const repositoryName = (name: string) => `binnacle-test/${name}-${randomBytes(3).toString('hex')}`;

/** Bytes of the file that is one byte above the cap the test agent serves. */
export const fileCap = 1024;

/**
 * Three layers that exercise the merge: files, a symbolic and a hard link, a file replaced by a later layer,
 * one deleted by `.wh.<name>`, a directory emptied by `.wh..wh..opq` and a file above the size cap.
 */
export async function pushLayeredImage(target: RegistryTarget, repository: string): Promise<PushedManifest> {
  return pushImage(target, repository, '1', [
    layer([
      { path: 'etc', type: 'directory' },
      { path: 'etc/os-release', content: 'ID=base\n' },
      { path: 'etc/secret.conf', content: 'removed later' },
      { path: 'bin/busybox', content: 'busybox binary', mode: 0o755 },
      { path: 'bin/sh', type: 'symlink', linkTarget: 'busybox', mode: 0o777 },
      { path: 'bin/ash', type: 'hardlink', linkTarget: 'bin/busybox' },
      { path: 'var/cache/apt/a.deb', content: 'aaaa' },
      { path: 'app/old.js', content: 'old' },
    ]),
    layer([
      { path: 'etc/.wh.secret.conf' },
      { path: 'var/cache/.wh..wh..opq' },
      { path: 'var/cache/fresh', content: 'new cache' },
      { path: 'data/big.bin', content: Buffer.alloc(fileCap + 1, 7) },
    ]),
    layer([
      { path: 'app/.wh.old.js' },
      { path: 'app/new.js', content: 'console.log(1)' },
      { path: 'etc/os-release', content: 'ID=binnacle\nVERSION=2\n', mode: 0o600 },
    ]),
  ]);
}

/** An index whose first entry is arm64 and second amd64, each with `/arch` naming its own architecture. */
export async function pushMultiArchImage(target: RegistryTarget, repository: string): Promise<void> {
  const arch = (architecture: string) =>
    pushImage(target, repository, undefined, [layer([{ path: 'arch', content: architecture }])], {
      os: 'linux',
      architecture,
    });
  await pushIndex(target, repository, '1', [await arch('arm64'), await arch('amd64')]);
}

/** A dockerconfigjson (or legacy dockercfg) Secret for one registry, created as the admin. */
export async function createPullSecret(
  namespace: string,
  name: string,
  registry: string,
  login: { username: string; password: string },
  legacy = false,
): Promise<void> {
  const core = testCluster().kubeConfig('admin').makeApiClient(CoreV1Api);
  const entry = { auth: Buffer.from(`${login.username}:${login.password}`).toString('base64') };
  const body = legacy
    ? { type: 'kubernetes.io/dockercfg', key: '.dockercfg', value: { [`http://${registry}`]: entry } }
    : {
        type: 'kubernetes.io/dockerconfigjson',
        key: '.dockerconfigjson',
        value: { auths: { [registry]: entry } },
      };
  await core.createNamespacedSecret({
    namespace,
    body: {
      metadata: { name },
      type: body.type,
      data: { [body.key]: Buffer.from(JSON.stringify(body.value)).toString('base64') },
    },
  });
}

/** A pod that names pull secrets (it never runs the image: its node is simulated). */
export async function createPullingPod(
  namespace: string,
  name: string,
  image: string,
  secrets: string[],
): Promise<void> {
  const core = testCluster().kubeConfig('admin').makeApiClient(CoreV1Api);
  await core.createNamespacedPod({
    namespace,
    body: {
      metadata: { name },
      spec: { containers: [{ name: 'main', image }], imagePullSecrets: secrets.map((s) => ({ name: s })) },
    },
  });
}
