/**
 * Builds the single executable (ADR 0039): `binnacle` with the agent, the hub and the web UI in one file, made with
 * Node's single-executable applications support from the pinned Node 24.
 *
 *   node scripts/build-sea.ts [--out packages/cli/dist-sea/binnacle]
 *
 * The release bundle (`npm run build:cli`), its web UI and the native addons it leaves external become assets of
 * the executable; packages/cli/src/single-executable.ts unpacks them on first start and loads the bundle.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'rolldown';
import { manifestAsset, type PayloadManifest } from '../packages/cli/src/sea-payload.ts';
import releaseBundle from '../rolldown.config.ts';

const root = resolve(import.meta.dirname, '..');
/**
 * What the release bundle leaves external (rolldown.config.ts): the native addons, and optional drivers that
 * `packageClosure` skips when they are not installed.
 */
const nativePackages = (Array.isArray(releaseBundle.external) ? releaseBundle.external : []).filter(
  (name): name is string => typeof name === 'string',
);
/** Node's published fuse for single executables: postject flips it so the binary looks for its blob. */
const seaFuse = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const platform = `${process.platform}-${process.arch}`;

/** Runs a build step with its output kept, shown only when it fails (postject warns about every ELF note). */
function step(command: string, args: string[], cwd = root): void {
  try {
    execFileSync(command, args, { cwd, stdio: 'pipe', maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(
      `${command} ${args.join(' ')} failed:\n${stdout?.toString() ?? ''}${stderr?.toString() ?? ''}`,
    );
  }
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** Source trees, build files and other platforms' prebuilt addons are not needed to run. */
function neededAtRunTime(packageDir: string, file: string): boolean {
  const path = relative(packageDir, file).split(sep).join('/');
  if (/^(deps|src|test|docs?)\//.test(path) || /\.(md|d\.ts|gyp|gypi|cc|h|c)$/.test(path)) return false;
  if (!path.endsWith('.node')) return true;
  const builtFor = /(linux|linuxmusl|darwin|win32)-(x64|arm64|ia32|arm)/.exec(path);
  return builtFor === null || builtFor[0] === platform;
}

/** A package and the dependencies it declares (optional ones when installed), as installed in node_modules. */
function packageClosure(name: string, from: string, seen = new Map<string, string>()): Map<string, string> {
  const require = createRequire(join(from, 'package.json'));
  let manifestPath: string;
  try {
    manifestPath = require.resolve(`${name}/package.json`);
  } catch {
    return seen; // an optional dependency for another platform
  }
  const dir = dirname(manifestPath);
  if (seen.has(name)) return seen;
  seen.set(name, dir);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    dependencies?: Record<string, string>;
    optionalDependencies?: Record<string, string>;
  };
  for (const dependency of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
    packageClosure(dependency, dir, seen);
  }
  return seen;
}

function payloadFiles(dist: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const file of walk(dist)) files.set(`dist/${relative(dist, file).split(sep).join('/')}`, file);
  const packages = new Map<string, string>();
  for (const name of nativePackages) packageClosure(name, root, packages);
  for (const [name, dir] of packages) {
    for (const file of walk(dir)) {
      // Nested installs are resolved as packages of their own by packageClosure.
      if (relative(dir, file).split(sep).includes('node_modules')) continue;
      if (neededAtRunTime(dir, file)) {
        files.set(`node_modules/${name}/${relative(dir, file).split(sep).join('/')}`, file);
      }
    }
  }
  return files;
}

/** The native addons the executable unpacks: an image must also hold the shared libraries they load. */
export function nativeAddons(): string[] {
  const packages = new Map<string, string>();
  for (const name of nativePackages) packageClosure(name, root, packages);
  return [...packages.values()].flatMap((dir) =>
    walk(dir).filter((file) => file.endsWith('.node') && neededAtRunTime(dir, file)),
  );
}

function manifestOf(files: Map<string, string>): PayloadManifest {
  const digest = createHash('sha256');
  const entries = [...files].sort(([a], [b]) => (a < b ? -1 : 1));
  const listed = entries.map(([path, source]) => {
    const mode = statSync(source).mode & 0o777 & ~0o022;
    digest.update(`${path}\0${mode}\0`).update(readFileSync(source));
    return { path, mode };
  });
  return { digest: digest.digest('hex').slice(0, 24), entry: 'dist/binnacle.js', files: listed };
}

export async function buildSingleExecutable(out: string): Promise<{ path: string; bytes: number }> {
  if (!existsSync(join(root, 'packages/web/dist/index.html'))) {
    throw new Error('packages/web/dist is not built: run "sh scripts/bootstrap.sh" first');
  }
  step('npm', ['run', '--silent', 'build:cli']);
  const work = join(dirname(out), '.sea-build');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const main = join(work, 'main.cjs');
  await build({
    input: join(root, 'packages/cli/src/single-executable.ts'),
    platform: 'node',
    output: { file: main, format: 'cjs' },
    logLevel: 'warn',
  });
  const files = payloadFiles(join(root, 'packages/cli/dist'));
  const manifest = manifestOf(files);
  const manifestFile = join(work, manifestAsset);
  writeFileSync(manifestFile, JSON.stringify(manifest));
  const blob = join(work, 'sea.blob');
  const config = {
    main,
    output: blob,
    disableExperimentalSEAWarning: true,
    assets: { [manifestAsset]: manifestFile, ...Object.fromEntries(files) },
  };
  writeFileSync(join(work, 'sea-config.json'), JSON.stringify(config));
  step(process.execPath, ['--experimental-sea-config', join(work, 'sea-config.json')], work);
  copyFileSync(process.execPath, out);
  // Node's symbols and debug information are a sixth of the binary; JavaScript stacks and profiles do not use them.
  step('strip', [out]);
  const postject = createRequire(import.meta.url).resolve('postject/dist/cli.js');
  step(process.execPath, [postject, out, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', seaFuse]);
  rmSync(work, { recursive: true, force: true });
  return { path: out, bytes: statSync(out).size };
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const out = resolve(values.out ?? join(root, 'packages/cli/dist-sea/binnacle'));
  mkdirSync(dirname(out), { recursive: true });
  const built = await buildSingleExecutable(out);
  process.stdout.write(`${built.path} (${(built.bytes / 1024 / 1024).toFixed(1)} MB)\n`);
}
