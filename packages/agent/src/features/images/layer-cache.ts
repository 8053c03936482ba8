import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '@binnacle/common/server';
import { digestPattern } from '../../oci/digest.ts';

interface Entry {
  bytes: number;
  /** A counter, not a clock: the least recently used entry has the smallest. */
  used: number;
}

/**
 * Layer blobs on disk under `dir`, at most `maxBytes` in all: the least recently used go first. A blob is
 * written to a temporary file and appears under its digest only once its stream ended without error (the
 * registry client's blob streams fail at their end when the bytes do not match the digest), so neither a
 * crash nor a tampered blob leaves anything behind. Readers open the file; evicting one being read is safe
 * (an unlinked file stays readable through its open descriptor). A layer larger than the whole bound is
 * streamed through once and not kept.
 */
export class LayerCache {
  readonly #dir: string;
  readonly #maxBytes: number;
  readonly #entries = new Map<string, Entry>();
  readonly #downloads = new Map<string, Promise<void>>();
  #loaded?: Promise<void>;
  #clock = 0;
  #bytes = 0;

  constructor(dir: string, maxBytes: number) {
    this.#dir = dir;
    this.#maxBytes = maxBytes;
  }

  #path(digest: string): string {
    const [, algorithm, hex] = digestPattern.exec(digest) ?? [];
    if (!algorithm || !hex)
      throw new AppError('registry_error', `${digest} is not a sha256 or sha512 digest`);
    return join(this.#dir, algorithm, hex);
  }

  /** What an earlier run left (oldest modification first), and leftovers of interrupted downloads removed. */
  #load(): Promise<void> {
    this.#loaded ??= (async () => {
      const found: { digest: string; bytes: number; mtime: number }[] = [];
      for (const algorithm of ['sha256', 'sha512']) {
        const dir = join(this.#dir, algorithm);
        await mkdir(dir, { recursive: true });
        for (const name of await readdir(dir)) {
          const path = join(dir, name);
          if (name.endsWith('.partial')) await rm(path, { force: true });
          else {
            const info = await stat(path);
            found.push({ digest: `${algorithm}:${name}`, bytes: info.size, mtime: info.mtimeMs });
          }
        }
      }
      for (const item of found.sort((a, b) => a.mtime - b.mtime)) this.#remember(item.digest, item.bytes);
      await this.#evict(0);
    })();
    return this.#loaded;
  }

  #remember(digest: string, bytes: number): void {
    this.#entries.set(digest, { bytes, used: ++this.#clock });
    this.#bytes += bytes;
  }

  /** Removes least recently used blobs until `incoming` more bytes fit. */
  async #evict(incoming: number): Promise<void> {
    const byAge = [...this.#entries].sort((a, b) => a[1].used - b[1].used);
    for (const [digest, entry] of byAge) {
      if (this.#bytes + incoming <= this.#maxBytes) return;
      this.#entries.delete(digest);
      this.#bytes -= entry.bytes;
      await rm(this.#path(digest), { force: true });
    }
  }

  /** Whether a blob is on disk now. */
  async has(digest: string): Promise<boolean> {
    await this.#load();
    return this.#entries.has(digest);
  }

  /** Bytes on disk (for tests and diagnostics). */
  get bytes(): number {
    return this.#bytes;
  }

  /**
   * The blob's bytes: from disk, or fetched (once, however many ask at the same time) and kept.
   * `size` is the manifest's, so a blob too large for the cache is known before a byte is fetched.
   */
  async open(digest: string, size: number, fetch: () => Promise<Readable>, label: string): Promise<Readable> {
    await this.#load();
    const path = this.#path(digest);
    if (size > this.#maxBytes) return fetch();
    const entry = this.#entries.get(digest);
    if (entry) {
      entry.used = ++this.#clock;
      return createReadStream(path);
    }
    let download = this.#downloads.get(digest);
    if (!download) {
      download = this.#download(digest, size, path, fetch, label).finally(() =>
        this.#downloads.delete(digest),
      );
      this.#downloads.set(digest, download);
    }
    await download;
    return createReadStream(path);
  }

  async #download(
    digest: string,
    size: number,
    path: string,
    fetch: () => Promise<Readable>,
    label: string,
  ): Promise<void> {
    const partial = `${path}.${process.pid}.${++this.#clock}.partial`;
    try {
      await pipeline(await fetch(), createWriteStream(partial));
      const bytes = (await stat(partial)).size;
      await this.#evict(Math.max(bytes, size));
      await rename(partial, path);
      this.#remember(digest, bytes);
    } catch (error) {
      await rm(partial, { force: true });
      if (error instanceof AppError) throw error;
      throw new AppError('registry_error', `${label}: reading ${digest} failed: ${(error as Error).message}`);
    }
  }
}
