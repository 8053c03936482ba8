/**
 * The entry point of the single executable (`npm run build:sea`, ADR 0039). Node runs this file from the
 * executable's embedded blob, where `require` reaches only built-in modules. The release bundle, the web UI and the
 * native addons travel in the blob as assets: on first start they are written once to a directory named by their
 * digest, and the bundle is then loaded from there like any release install.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { getAsset, getRawAsset } from 'node:sea';
import { manifestAsset, type PayloadManifest } from './sea-payload.ts';

/** Where the payload may be written: the user's cache first, the temp directory when the home is read-only. */
function candidateRoots(): string[] {
  const uid = process.getuid?.() ?? 'user';
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return [join(cache, 'binnacle', 'sea'), join(tmpdir(), `binnacle-sea-${uid}`)];
}

/**
 * A root is used only if it is a real directory of this user and nobody else may write into it: code is loaded from
 * it, so a directory another user prepared in a shared temp folder must never be trusted.
 */
function ownedRoot(root: string): boolean {
  try {
    mkdirSync(root, { recursive: true, mode: 0o700 });
    const stat = lstatSync(root);
    const ownUid = process.getuid?.();
    return stat.isDirectory() && (ownUid === undefined || stat.uid === ownUid) && (stat.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

function writePayload(root: string, manifest: PayloadManifest): string {
  const target = join(root, manifest.digest);
  if (existsSync(join(target, manifestAsset))) return target;
  // Written beside the target and renamed into place: two executables starting at once never see half a payload.
  const staging = join(root, `.${manifest.digest}-${randomBytes(6).toString('hex')}`);
  try {
    for (const file of manifest.files) {
      const path = join(staging, file.path);
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      writeFileSync(path, new Uint8Array(getRawAsset(file.path)));
      chmodSync(path, file.mode);
    }
    writeFileSync(join(staging, manifestAsset), JSON.stringify(manifest));
    try {
      renameSync(staging, target);
    } catch (error) {
      // Another start won the race: its payload has the same digest, so use it.
      if (!existsSync(join(target, manifestAsset))) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return target;
}

function unpack(): string {
  const manifest = JSON.parse(getAsset(manifestAsset, 'utf8')) as PayloadManifest;
  const failures: string[] = [];
  for (const root of candidateRoots()) {
    if (!ownedRoot(root)) {
      failures.push(`${root}: not a directory of this user that only it may write to`);
      continue;
    }
    try {
      return join(writePayload(root, manifest), manifest.entry);
    } catch (error) {
      failures.push(`${root}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new Error(`cannot unpack the executable's files:\n  ${failures.join('\n  ')}`);
}

let entry: string;
try {
  entry = unpack();
} catch (error) {
  process.stderr.write(`binnacle: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
// The bundle is an ES module without top-level await, so it loads synchronously; it reads process.argv itself.
createRequire(entry)(entry);
