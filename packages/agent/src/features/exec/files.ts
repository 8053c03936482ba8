import { posix } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { AppError, badRequest } from '@binnacle/common/server';
import type { Impersonation } from '../../kube/client.ts';
import type { ExecContext } from './module.ts';
import { execInPod, runInPod } from './pod-exec.ts';

export const fileLimits = { maxEntries: 10_000, listBytes: 8 * 1024 * 1024, firstChunkBytes: 64 * 1024 };

export interface FileEntry {
  name: string;
  path: string;
  type: 'file' | 'dir' | 'symlink' | 'other';
  size: number;
  mode: string;
  modTime?: string;
  linkTarget?: string;
}

/**
 * A path inside the container, checked: absolute, no `..` segment, no NUL, at most 4096 bytes. It is passed
 * to commands as an argument, never through a shell string, so no quoting can break out; being absolute, it
 * starts with `/` and no command reads it as an option (find, stat); tar's base name gets a `--` before it.
 */
export function safePath(raw: string | undefined): string {
  const path = raw ?? '/';
  if (path.length > 4096) throw badRequest('query parameter "path" is longer than 4096 bytes');
  if (path.includes('\0')) throw badRequest('query parameter "path" contains a NUL byte');
  if (!path.startsWith('/')) throw badRequest(`query parameter "path" must be absolute, got "${path}"`);
  if (path.split('/').includes('..'))
    throw badRequest(`query parameter "path" must not contain ".." segments, got "${path}"`);
  return posix.normalize(path);
}

const findFormat = '%y\\t%s\\t%T@\\t%m\\t%f\\t%l\\n';
// POSIX sh + stat for images without GNU find (busybox); the directory is $1, never part of the script.
const statScript =
  'for f in "$1"/* "$1"/.[!.]* "$1"/..?*; do { [ -e "$f" ] || [ -L "$f" ]; } || continue; stat -c "%F\t%s\t%Y\t%a\t%n" "$f"; done';

const findType: Record<string, FileEntry['type']> = { f: 'file', d: 'dir', l: 'symlink' };
const statType = (t: string): FileEntry['type'] =>
  t.includes('directory')
    ? 'dir'
    : t.includes('symbolic')
      ? 'symlink'
      : t.includes('regular')
        ? 'file'
        : 'other';

function commandError(stderr: string, message: string | undefined, path: string): AppError {
  const text = `${stderr}\n${message ?? ''}`;
  if (
    /No such file|not found.*(find|stat)|can't open/i.test(text) &&
    !/executable file not found/i.test(text)
  )
    return new AppError('not_found', `${path} does not exist in the container`);
  if (/Permission denied/i.test(text))
    return new AppError('forbidden', `the container user may not read ${path}`);
  if (/Not a directory/i.test(text)) return badRequest(`${path} is not a directory`);
  if (/executable file not found|no such file or directory: unknown/i.test(text))
    return badRequest('the container has neither find nor sh with stat, so its files cannot be listed');
  return new AppError(
    'cluster_error',
    `listing ${path} failed: ${(stderr || message || 'unknown error').trim().slice(0, 300)}`,
  );
}

/** A file or directory in a pod's container, as the files routes name it (the path checked by `safePath`). */
export interface ContainerPath {
  namespace: string;
  pod: string;
  container: string;
  path: string;
}

/** A directory listing of a container, through exec (GNU find, else sh and stat). */
export async function listFiles(ctx: ExecContext, target: ContainerPath, as?: Impersonation) {
  const { namespace, pod, container, path } = target;
  const runCommand = (command: string[]) =>
    runInPod(ctx, namespace, pod, container, command, fileLimits.listBytes, as);
  let run = await runCommand(['find', path, '-mindepth', '1', '-maxdepth', '1', '-printf', findFormat]);
  let entries: FileEntry[];
  if (run.exitCode !== 0 && /unknown predicate|unrecognized: -printf|invalid predicate/i.test(run.stderr)) {
    run = await runCommand(['sh', '-c', statScript, 'sh', path]);
    if (run.exitCode !== 0) throw commandError(run.stderr, run.message, path);
    entries = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [type = '', size = '0', mtime = '0', mode = '', full = ''] = line.split('\t');
        return {
          name: posix.basename(full),
          path: full,
          type: statType(type),
          size: Number(size),
          mode,
          modTime: new Date(Number(mtime) * 1000).toISOString(),
        };
      });
  } else {
    if (run.exitCode !== 0) throw commandError(run.stderr, run.message, path);
    entries = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [type = '', size = '0', mtime = '0', mode = '', name = '', link = ''] = line.split('\t');
        return {
          name,
          path: posix.join(path, name),
          type: findType[type] ?? 'other',
          size: Number(size),
          mode,
          modTime: new Date(Number(mtime) * 1000).toISOString(),
          ...(link ? { linkTarget: link } : {}),
        };
      });
  }
  entries.sort((a, b) => Number(b.type === 'dir') - Number(a.type === 'dir') || a.name.localeCompare(b.name));
  const truncated = run.truncated || entries.length > fileLimits.maxEntries;
  return { path, entries: entries.slice(0, fileLimits.maxEntries), truncated };
}

/**
 * A tar of a file or directory, streamed from `tar` in the container as it produces it. The first bytes are
 * awaited before answering, so a missing path or a container without tar is a proper HTTP error; after that,
 * the archive flows with backpressure and the command ends if the client goes away.
 */
export async function downloadFiles(
  ctx: ExecContext,
  target: ContainerPath,
  as?: Impersonation,
): Promise<Readable> {
  const { namespace, pod, container, path } = target;
  const dir = path === '/' ? '/' : posix.dirname(path);
  const base = path === '/' ? '.' : posix.basename(path);
  const out = new PassThrough({ highWaterMark: 256 * 1024 });
  const head: Buffer[] = [];
  let headBytes = 0;
  let stderr = '';
  let started = false;
  return new Promise((resolveStream, reject) => {
    let proc: Awaited<ReturnType<typeof execInPod>> | undefined;
    const start = () => {
      if (started) return;
      started = true;
      for (const chunk of head) out.write(chunk);
      resolveStream(out);
    };
    out.on('drain', () => proc?.resume());
    out.on('close', () => proc?.close());
    // `--` ends tar's options: a file named `--help` (or `--to-command=…`) is archived, not obeyed.
    execInPod(ctx, namespace, pod, container, ['tar', 'cf', '-', '-C', dir, '--', base], {
      as,
      tty: false,
      stdin: false,
      onStdout(data) {
        if (!started) {
          head.push(data);
          headBytes += data.length;
          if (headBytes >= fileLimits.firstChunkBytes) start();
          return;
        }
        if (!out.write(data)) proc?.pause();
      },
      onStderr: (data) => {
        stderr += data.toString();
      },
      onExit(result) {
        if (result.exitCode === 0) {
          start();
          out.end();
        } else if (!started) {
          reject(
            /executable file not found/i.test(`${stderr}${result.message}`)
              ? badRequest('the container has no tar, so its files cannot be downloaded')
              : commandError(stderr, result.message, path),
          );
        } else out.destroy(new Error(`tar failed: ${stderr.trim()}`));
      },
    }).then((p) => {
      proc = p;
    }, reject);
  });
}
