/**
 * Builds the container image of the agent and the hub (ADR 0039) without a container engine: the single executable,
 * helm and the shared libraries they load are laid out as a root filesystem, and image/Containerfile (COPY steps
 * over scratch) turns them into an image with buildah.
 *
 *   node scripts/build-image.ts [--tag localhost/binnacle:0.1.0] [--push REF] [--insecure-registry]
 *                               [--sea PATH] [--helm PATH] [--storage DIR]
 *
 * --sea and --helm default to a fresh `scripts/build-sea.ts` build and the helm test/cluster/helm.sh provides.
 * --storage keeps buildah's images in DIR (vfs driver, no kernel overlay needed) instead of its default store.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import packageJson from '../packages/cli/package.json' with { type: 'json' };
import { buildSingleExecutable, nativeAddons } from './build-sea.ts';

const root = resolve(import.meta.dirname, '..');
/** The user the image runs as: the charts' runAsUser, with no login shell. */
const imageUser = { uid: 65532, name: 'binnacle' };

export interface ImageBuild {
  tag: string;
  sea: string;
  helm: string;
  /** buildah's store (`--root`); its run directory goes beside it. */
  storage?: string;
  push?: { ref: string; insecure: boolean };
}

/** The shared libraries a dynamically linked program or addon loads, by the paths the loader looks them up at. */
function sharedLibraries(program: string): string[] {
  let listing: string;
  try {
    listing = execFileSync('ldd', [program], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return []; // "not a dynamic executable": a static binary such as helm
  }
  return listing
    .split('\n')
    .map((line) => /(?:=>\s*)?(\/\S+)\s+\(0x/.exec(line)?.[1])
    .filter((path): path is string => path !== undefined);
}

function place(source: string, rootfs: string, path: string, mode: number): void {
  const target = join(rootfs, path);
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(realpathSync(source), target);
  chmodSync(target, mode);
}

/** Three layers, the one that changes most last: the C runtime, helm, then binnacle with its identity files. */
function layOut(context: string, build: ImageBuild): void {
  rmSync(context, { recursive: true, force: true });
  const base = join(context, 'base');
  const programs = [build.sea, build.helm, ...nativeAddons()];
  for (const library of new Set(programs.flatMap(sharedLibraries))) {
    place(library, base, library, 0o755);
  }
  const files: Record<string, string> = {
    'etc/passwd': `root:x:0:0:root:/root:/sbin/nologin\n${imageUser.name}:x:${imageUser.uid}:${imageUser.uid}:Binnacle:/tmp:/sbin/nologin\n`,
    'etc/group': `root:x:0:\n${imageUser.name}:x:${imageUser.uid}:\n`,
    'etc/nsswitch.conf': 'hosts: files dns\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(base, path)), { recursive: true });
    writeFileSync(join(base, path), text, { mode: 0o644 });
  }
  // Written by the executable on start (its unpacked files) and by helm; the charts mount an emptyDir over both.
  for (const dir of ['tmp', 'data']) mkdirSync(join(base, dir), { recursive: true });
  chmodSync(join(base, 'tmp'), 0o1777);
  chmodSync(join(base, 'data'), 0o1777);
  place(build.helm, join(context, 'helm'), '/usr/local/bin/helm', 0o755);
  place(build.sea, join(context, 'binnacle'), '/usr/local/bin/binnacle', 0o755);
  copyFileSync(join(root, 'image/Containerfile'), join(context, 'Containerfile'));
}

function buildah(build: ImageBuild, args: string[]): string {
  const store = build.storage
    ? ['--root', build.storage, '--runroot', `${build.storage}-run`, '--storage-driver', 'vfs']
    : ['--storage-driver', 'vfs'];
  try {
    return execFileSync('buildah', [...store, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const { code, stderr } = error as { code?: string; stderr?: string };
    if (code === 'ENOENT') throw new Error('buildah is not installed (Debian: apt-get install buildah)');
    throw new Error(`buildah ${args[0]} failed: ${stderr ?? String(error)}`);
  }
}

export function buildImage(build: ImageBuild): { tag: string; rootfsBytes: number } {
  const context = join(root, 'packages/cli/dist-image');
  layOut(context, build);
  buildah(build, [
    'bud',
    '--isolation',
    'chroot',
    '--layers=false',
    '--label',
    `org.opencontainers.image.version=${packageJson.version}`,
    '-f',
    join(context, 'Containerfile'),
    '-t',
    build.tag,
    context,
  ]);
  if (build.push) {
    buildah(build, [
      'push',
      `--tls-verify=${String(!build.push.insecure)}`,
      build.tag,
      `docker://${build.push.ref}`,
    ]);
  }
  const rootfsBytes = ['base', 'helm', 'binnacle']
    .flatMap((layer) => walkSizes(join(context, layer)))
    .reduce((sum, size) => sum + size, 0);
  return { tag: build.tag, rootfsBytes };
}

function walkSizes(dir: string): number[] {
  const listing = execFileSync('find', [dir, '-type', 'f', '-printf', '%s\\n'], { encoding: 'utf8' });
  return listing
    .split('\n')
    .filter(Boolean)
    .map((size) => Number(size));
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      tag: { type: 'string', default: `localhost/binnacle:${packageJson.version}` },
      push: { type: 'string' },
      'insecure-registry': { type: 'boolean', default: false },
      sea: { type: 'string' },
      helm: { type: 'string' },
      storage: { type: 'string' },
    },
  });
  const sea = values.sea ?? (await buildSingleExecutable(join(root, 'packages/cli/dist-sea/binnacle'))).path;
  const helm =
    values.helm ?? execFileSync('bash', [join(root, 'test/cluster/helm.sh')], { encoding: 'utf8' }).trim();
  statSync(helm);
  const built = buildImage({
    tag: values.tag,
    sea: resolve(sea),
    helm: resolve(helm),
    ...(values.storage ? { storage: resolve(values.storage) } : {}),
    ...(values.push ? { push: { ref: values.push, insecure: values['insecure-registry'] } } : {}),
  });
  process.stdout.write(
    `${built.tag}: ${(built.rootfsBytes / 1024 / 1024).toFixed(1)} MB of files (${basename(sea)}, helm, C runtime)${values.push ? `, pushed to ${values.push}` : ''}\n`,
  );
}
