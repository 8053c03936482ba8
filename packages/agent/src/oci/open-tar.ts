import { pipeline, type Readable, type Transform } from 'node:stream';
import * as zlib from 'node:zlib';
import { AppError } from '@binnacle/common/server';
import { type TarLimits, TarReader } from './tar-reader.ts';
import { collecting } from './young-garbage.ts';

/** The decompressor a media type asks for (gzip for Docker's and OCI's usual layers and for Helm charts). */
function decompressor(mediaType: string, label: string): Transform | undefined {
  if (mediaType.includes('gzip')) return zlib.createGunzip();
  if (mediaType.includes('zstd')) {
    // zstd arrived in node:zlib with Node 23.8; older runtimes name the gap instead of misreading the layer.
    const zstd = (zlib as { createZstdDecompress?: () => Transform }).createZstdDecompress;
    if (!zstd) throw new AppError('registry_error', `${label}: zstd layers need a newer Node.js`);
    return zstd();
  }
  if (mediaType.endsWith('.tar') || mediaType.endsWith('tar')) return undefined;
  throw new AppError('registry_error', `${label}: media type ${mediaType} is no tar archive`);
}

/**
 * A tar archive read as its bytes arrive: decompressed by its media type and parsed member by member, its
 * chunks counted for young-generation collections (young-garbage.ts). `limits.maxBytes` bounds the bytes
 * once decompressed, so a small archive cannot unpack into an unbounded stream.
 */
export function openTar(
  source: Readable,
  mediaType: string,
  label: string,
  limits: TarLimits = {},
): TarReader {
  const inflate = decompressor(mediaType, label);
  if (!inflate) return new TarReader(collecting(source), limits);
  // pipeline destroys the decompressor with the source's error, so the reader's loop sees it.
  const out = pipeline(source, inflate, () => undefined);
  return new TarReader(collecting(out), limits);
}
