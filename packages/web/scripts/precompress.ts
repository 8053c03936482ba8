import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** What the servers compress on the fly too (packages/common/src/server/compression.ts): text, never images. */
const textAsset = /\.(?:js|mjs|css|html|svg|json|txt|map)$/;

/** The issue 38 budget: the first page's scripts over the wire, compressed as every browser accepts (gzip). */
export const firstPageJsBudget = 200 * 1024;

/**
 * Writes `<file>.br` (quality 11) and `<file>.gz` (level 9) beside every text asset of at least 1 KB, once at
 * build time, so the servers send them without compressing per request (ADR 0058). A copy that is not smaller
 * than the file is not written: the server then sends the file itself.
 */
export async function precompress(dir: string): Promise<void> {
  const files = (await readdir(dir, { recursive: true })).filter((file) => textAsset.test(file));
  // All at once: zlib runs them on libuv's thread pool, so the brotli of the big layout worker is not alone.
  await Promise.all(
    files.map(async (file) => {
      const path = join(dir, file);
      const body = await readFile(path);
      if (body.length < 1024) return;
      const [br, gz] = await Promise.all([
        brotli(body, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: 11,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        }),
        gzipped(body, { level: 9 }),
      ]);
      if (br.length < body.length) await writeFile(`${path}.br`, br);
      if (gz.length < body.length) await writeFile(`${path}.gz`, gz);
    }),
  );
}

export interface FirstPageJs {
  /** The scripts index.html loads before anything lazy: the entry and its module preloads. */
  files: string[];
  raw: number;
  gzip: number;
  br: number;
}

/** The size of a built file as sent in a coding: its precompressed copy when there is one, else itself. */
async function sentSize(path: string, suffix: '' | '.gz' | '.br'): Promise<number> {
  const copy = await stat(`${path}${suffix}`).catch(() => undefined);
  return (copy ?? (await stat(path))).size;
}

/** The first page's scripts in a built UI (`dist`), raw and as sent brotli- and gzip-compressed. */
export async function firstPageJs(dist: string): Promise<FirstPageJs> {
  const html = await readFile(join(dist, 'index.html'), 'utf8');
  const files = [
    ...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\.\/([^"]+\.js)"/g),
  ]
    .map((m) => m[1] ?? '')
    .filter(Boolean);
  const sizes = { raw: 0, gzip: 0, br: 0 };
  for (const file of files) {
    const path = join(dist, file);
    sizes.raw += await sentSize(path, '');
    sizes.gzip += await sentSize(path, '.gz');
    sizes.br += await sentSize(path, '.br');
  }
  return { files, ...sizes };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * The build step that precompresses the output and holds the first page to its budget: a build whose entry
 * scripts exceed `firstPageJsBudget` gzipped fails, naming them (split what the first page does not need with
 * a lazy import).
 */
export function precompressPlugin(): Plugin {
  let outDir = 'dist';
  return {
    name: 'binnacle-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    async writeBundle() {
      await precompress(outDir);
      const first = await firstPageJs(outDir);
      const line = `first page JS ${kb(first.raw)}, ${kb(first.gzip)} gzip, ${kb(first.br)} brotli (budget ${kb(firstPageJsBudget)} gzip): ${first.files.join(', ')}`;
      if (first.gzip > firstPageJsBudget) this.error(`over budget: ${line}`);
      this.info(line);
    },
  };
}
