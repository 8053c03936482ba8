import { pipeline, type Readable, type Transform } from 'node:stream';
import * as zlib from 'node:zlib';
import { AppError } from '@binnacle/common/server';
import { TarReader } from './tar-reader.ts';
import { collecting } from './young-garbage.ts';

/** The decompressor a layer's media type asks for (gzip for Docker's and OCI's usual layers). */
function decompressor(mediaType: string, label: string): Transform | undefined {
  if (mediaType.includes('gzip')) return zlib.createGunzip();
  if (mediaType.includes('zstd')) {
    // zstd arrived in node:zlib with Node 23.8; older runtimes name the gap instead of misreading the layer.
    const zstd = (zlib as { createZstdDecompress?: () => Transform }).createZstdDecompress;
    if (!zstd) throw new AppError('registry_error', `${label}: zstd layers need a newer Node.js`);
    return zstd();
  }
  if (mediaType.endsWith('.tar') || mediaType.endsWith('tar')) return undefined;
  throw new AppError(
    'registry_error',
    `${label}: a layer of media type ${mediaType} is not a filesystem layer`,
  );
}

/** A layer's tar, read as the bytes arrive: decompressed by its media type and parsed member by member. */
export function layerTar(source: Readable, mediaType: string, label: string): TarReader {
  const inflate = decompressor(mediaType, label);
  if (!inflate) return new TarReader(collecting(source));
  // pipeline destroys the decompressor with the source's error, so the reader's loop sees it.
  const out = pipeline(source, inflate, () => undefined);
  return new TarReader(collecting(out));
}
