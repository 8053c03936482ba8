import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import { AppError, internal } from '@binnacle/common/server';
import { compareVersions } from '../../scope/version-check.ts';
import { parseManifest, platformKey, type Release, type ReleaseAsset } from './manifest.ts';

const manifestTimeoutMs = 15_000;
const manifestMaxBytes = 1024 * 1024;
const downloadTimeoutMs = 10 * 60_000;

export type UpdateState = 'idle' | 'checking' | 'ready' | 'downloading' | 'applied' | 'error';

export interface UpdateStatus {
  /** The running version. */
  current: string;
  /** The manifest's version at the last check. */
  latest?: string;
  /** A newer version with a build for this platform is ready to apply. */
  available: boolean;
  state: UpdateState;
  checkedAt?: string;
  /** Why the last check or apply failed (state error). */
  error?: string;
  /** An update replaced the executable: it runs at the next start. */
  restartRequired: boolean;
}

export interface UpdaterOptions {
  currentVersion: string;
  /** The release manifest (undefined: updates are not configured). */
  manifestUrl?: string;
  /** The executable an update replaces (undefined: not a single executable, nothing to replace). */
  executable?: string;
}

/** What a failed fetch or stream says about itself: the network's code, a time-out, or its message. */
function reasonOf(error: unknown): string {
  const err = error as Error & { cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError') return 'timed out';
  return err.cause?.code ?? err.cause?.message ?? err.message;
}

async function fetchFrom(url: string, timeoutMs: number, what: string): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
  } catch (error) {
    throw new AppError('update_source_error', `${what} ${url} could not be fetched (${reasonOf(error)})`, {
      cause: error,
    });
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new AppError('update_source_error', `${what} ${url} answered HTTP ${response.status}`);
  }
  return response;
}

async function readManifest(manifestUrl: string): Promise<Release> {
  const response = await fetchFrom(manifestUrl, manifestTimeoutMs, 'the release manifest');
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw new AppError(
      'update_source_error',
      `the release manifest ${manifestUrl} could not be read (${reasonOf(error)})`,
    );
  }
  if (text.length > manifestMaxBytes)
    throw new AppError('update_source_error', `the release manifest ${manifestUrl} is over 1 MiB`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AppError('update_source_error', `the release manifest ${manifestUrl} is not JSON`);
  }
  return parseManifest(body, manifestUrl);
}

const mismatch = (message: string) =>
  new AppError('checksum_mismatch', `${message}; the download was deleted and the executable left as it was`);

/** Errors of our own file operations (next to the executable) in words the person can act on. */
function fileError(error: unknown, executable: string): AppError {
  if (error instanceof AppError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
    return new AppError(
      'forbidden',
      `cannot write next to ${executable} (${code}); update it by hand or install it where your user may write`,
    );
  return (error as NodeJS.ErrnoException).syscall
    ? internal(error)
    : new AppError('update_source_error', `the download failed (${reasonOf(error)})`, { cause: error });
}

/**
 * Streams `asset` into a new file beside `executable`, checks its size and SHA-256, and only then renames it
 * over the executable (an atomic replace on one file system). On any failure the new file is removed and the
 * executable is untouched.
 */
async function replaceExecutable(asset: ReleaseAsset, executable: string): Promise<void> {
  const temp = join(dirname(executable), `.${basename(executable)}.update-${randomBytes(6).toString('hex')}`);
  try {
    const response = await fetchFrom(asset.url, downloadTimeoutMs, 'the update');
    const hash = createHash('sha256');
    let size = 0;
    await pipeline(
      Readable.fromWeb(response.body as ReadableStream<Uint8Array>),
      async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          size += chunk.length;
          // A larger file is wrong already: stop reading rather than fill the disk.
          if (size > asset.size)
            throw mismatch(`the update is larger than the manifest's ${asset.size} bytes`);
          hash.update(chunk);
          yield chunk;
        }
      },
      createWriteStream(temp, { flags: 'wx', mode: 0o700 }),
    );
    if (size !== asset.size) throw mismatch(`the update is ${size} bytes, the manifest says ${asset.size}`);
    const digest = hash.digest('hex');
    if (digest !== asset.sha256)
      throw mismatch(`the update's SHA-256 is ${digest}, the manifest says ${asset.sha256}`);
    await chmod(temp, 0o755);
    await rename(temp, executable);
  } catch (error) {
    await rm(temp, { force: true });
    throw fileError(error, executable);
  }
}

/** The desktop binary's updater: one check or apply at a time, its progress readable at any moment. */
export class Updater {
  readonly #options: UpdaterOptions;
  #state: UpdateState = 'idle';
  /** The version on disk: the running one until an update replaced it. */
  #installed: string;
  #release?: Release;
  #checkedAt?: Date;
  #error?: string;
  #busy = false;

  constructor(options: UpdaterOptions) {
    this.#options = options;
    this.#installed = options.currentVersion;
  }

  get #available(): boolean {
    const release = this.#release;
    return Boolean(release?.asset) && compareVersions(release?.version ?? '', this.#installed) > 0;
  }

  get #applied(): boolean {
    return this.#installed !== this.#options.currentVersion;
  }

  status(): UpdateStatus {
    return {
      current: this.#options.currentVersion,
      latest: this.#release?.version,
      available: this.#available,
      state: this.#state,
      checkedAt: this.#checkedAt?.toISOString(),
      error: this.#error,
      restartRequired: this.#applied,
    };
  }

  /** Reads the manifest: `available` says whether a newer build for this platform exists. */
  check(): Promise<UpdateStatus> {
    return this.#exclusive(async () => {
      await this.#check();
      return this.status();
    });
  }

  /** Downloads, verifies and installs the newest build (checking first unless a check found it). */
  async apply(): Promise<{ applied: true; version: string; restartRequired: true }> {
    const executable = this.#options.executable;
    if (!executable)
      throw new AppError(
        'not_single_executable',
        'this agent does not run as the single-executable binary: there is no executable to update',
      );
    return this.#exclusive(async () => {
      if (this.#state !== 'ready') await this.#check();
      const release = this.#release;
      if (!release?.asset || !this.#available) {
        throw new AppError(
          'update_not_available',
          release && !release.asset
            ? `release ${release.version} has no build for ${platformKey()}`
            : `no version newer than ${this.#installed} is published`,
        );
      }
      this.#state = 'downloading';
      await replaceExecutable(release.asset, executable);
      this.#installed = release.version;
      this.#state = 'applied';
      return { applied: true, version: release.version, restartRequired: true };
    });
  }

  async #check(): Promise<void> {
    const manifestUrl = this.#options.manifestUrl;
    if (!manifestUrl)
      throw new AppError(
        'update_not_configured',
        'no release manifest is configured: start binnacle desktop with --update-url',
      );
    this.#state = 'checking';
    this.#release = await readManifest(manifestUrl);
    this.#checkedAt = new Date();
    this.#error = undefined;
    this.#state = this.#available ? 'ready' : this.#applied ? 'applied' : 'idle';
  }

  async #exclusive<T>(work: () => Promise<T>): Promise<T> {
    if (this.#busy)
      throw new AppError('update_in_progress', `an update is already ${this.#state}; wait for it to finish`);
    this.#busy = true;
    try {
      return await work();
    } catch (error) {
      const failure = error instanceof AppError ? error : internal(error);
      // A missing configuration or a refused second request changes nothing that was known.
      if (failure.code !== 'update_not_configured' && failure.code !== 'update_not_available') {
        this.#state = 'error';
        this.#error = failure.message;
      }
      throw failure;
    } finally {
      this.#busy = false;
    }
  }
}
