import { createHash, randomFillSync } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { request } from 'node:http';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createGzip, gzipSync } from 'node:zlib';
import { type LayerEntry, tarArchive, tarEnd, tarHeader, tarPadding } from './tar-writer.ts';

/** A registry the tests push to: its base URL (http://127.0.0.1:<port>) and, for one with basic auth, a login. */
export interface RegistryTarget {
  url: string;
  username?: string;
  password?: string;
}

/** A layer ready to push: gzip-compressed tar in memory or in a file, with both digests the image needs. */
export interface Layer {
  digest: string;
  size: number;
  /** sha256 of the uncompressed tar (the config's rootfs.diff_ids). */
  diffId: string;
  bytes?: Buffer;
  file?: string;
}

export interface Platform {
  os: string;
  architecture: string;
  variant?: string;
}

export interface PushedManifest {
  digest: string;
  size: number;
  mediaType: string;
  platform: Platform;
}

const sha256 = (bytes: Buffer | string) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
const layerType = 'application/vnd.oci.image.layer.v1.tar+gzip';
const manifestType = 'application/vnd.oci.image.manifest.v1+json';
const indexType = 'application/vnd.oci.image.index.v1+json';

/** A small layer, built in memory (`.wh.<name>` and `.wh..wh..opq` entries are just files). */
export function layer(entries: LayerEntry[]): Layer {
  const tar = tarArchive(entries);
  const bytes = gzipSync(tar);
  return { digest: sha256(bytes), size: bytes.length, diffId: sha256(tar), bytes };
}

function hashing(hash: ReturnType<typeof createHash>): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
}

/**
 * A layer of one file of `bytes` random (incompressible) bytes, written to `file` as it is generated — a
 * MiB at a time, so neither the test nor the agent ever holds it.
 */
export async function largeLayer(file: string, path: string, bytes: number): Promise<Layer> {
  function* tar() {
    yield tarHeader({ path }, bytes);
    const chunk = Buffer.alloc(1 << 20);
    for (let left = bytes; left > 0; left -= chunk.length) {
      randomFillSync(chunk);
      yield Buffer.from(chunk.subarray(0, Math.min(left, chunk.length)));
    }
    yield tarPadding(bytes);
    yield tarEnd();
  }
  const uncompressed = createHash('sha256');
  const compressed = createHash('sha256');
  await pipeline(
    Readable.from(tar()),
    hashing(uncompressed),
    // Random bytes do not compress: stored deflate blocks are as small, still gzip, and many times faster.
    createGzip({ level: constants.Z_NO_COMPRESSION }),
    hashing(compressed),
    createWriteStream(file),
  );
  return {
    digest: `sha256:${compressed.digest('hex')}`,
    diffId: `sha256:${uncompressed.digest('hex')}`,
    size: (await stat(file)).size,
    file,
  };
}

function authorization(target: RegistryTarget): Record<string, string> {
  if (!target.username) return {};
  return {
    authorization: `Basic ${Buffer.from(`${target.username}:${target.password ?? ''}`).toString('base64')}`,
  };
}

/** One HTTP call to the registry with a body from memory or a file (node:http: a file streams with its length). */
function send(
  target: RegistryTarget,
  method: string,
  url: string,
  body: { bytes?: Buffer; file?: string; size: number; type?: string },
): Promise<{ status: number; location?: string; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(url, target.url),
      {
        method,
        headers: {
          ...authorization(target),
          'content-length': String(body.size),
          'content-type': body.type ?? 'application/octet-stream',
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, text }));
      },
    );
    req.on('error', reject);
    if (body.file) createReadStream(body.file).on('error', reject).pipe(req);
    else req.end(body.bytes);
  });
}

/** Uploads a blob (monolithic: POST for an upload URL, then one PUT with the digest). */
export async function pushBlob(
  target: RegistryTarget,
  repository: string,
  blob: { digest: string; size: number; bytes?: Buffer; file?: string },
): Promise<void> {
  const start = await send(target, 'POST', `/v2/${repository}/blobs/uploads/`, { size: 0 });
  if (start.status !== 202 || !start.location)
    throw new Error(`starting an upload to ${repository} answered ${start.status}: ${start.text}`);
  const url = new URL(start.location, target.url);
  url.searchParams.set('digest', blob.digest);
  const put = await send(target, 'PUT', url.toString(), blob);
  if (put.status !== 201) throw new Error(`uploading ${blob.digest} answered ${put.status}: ${put.text}`);
}

async function putManifest(
  target: RegistryTarget,
  repository: string,
  reference: string,
  document: unknown,
  type: string,
): Promise<{ digest: string; size: number }> {
  const bytes = Buffer.from(JSON.stringify(document));
  const put = await send(target, 'PUT', `/v2/${repository}/manifests/${reference}`, {
    bytes,
    size: bytes.length,
    type,
  });
  if (put.status !== 201)
    throw new Error(`pushing ${repository}:${reference} answered ${put.status}: ${put.text}`);
  return { digest: sha256(bytes), size: bytes.length };
}

/** What an image config holds besides its platform and layers: run settings, build history, creation time. */
export interface ImageConfigFields {
  created?: string;
  config?: Record<string, unknown>;
  history?: { created_by?: string; empty_layer?: boolean; comment?: string }[];
}

/**
 * Pushes an OCI image — its layers, a config naming their diff ids, the platform and `fields`, the manifest —
 * and tags it (`reference`: a tag, or the manifest's own digest when it only goes into an index).
 */
export async function pushImage(
  target: RegistryTarget,
  repository: string,
  reference: string | undefined,
  layers: Layer[],
  platform: Platform = { os: 'linux', architecture: 'amd64' },
  fields: ImageConfigFields = { config: { Env: ['PATH=/usr/local/bin:/usr/bin:/bin'], Cmd: ['/bin/app'] } },
): Promise<PushedManifest> {
  const config = Buffer.from(
    JSON.stringify({
      ...fields,
      ...platform,
      rootfs: { type: 'layers', diff_ids: layers.map((l) => l.diffId) },
    }),
  );
  const configBlob = { digest: sha256(config), size: config.length, bytes: config };
  for (const blob of [configBlob, ...layers]) await pushBlob(target, repository, blob);
  const manifest = {
    schemaVersion: 2,
    mediaType: manifestType,
    config: {
      mediaType: 'application/vnd.oci.image.config.v1+json',
      digest: configBlob.digest,
      size: configBlob.size,
    },
    layers: layers.map((l) => ({ mediaType: layerType, digest: l.digest, size: l.size })),
  };
  const digest = sha256(JSON.stringify(manifest));
  const pushed = await putManifest(target, repository, reference ?? digest, manifest, manifestType);
  return { ...pushed, mediaType: manifestType, platform };
}

/** Pushes an OCI index of already pushed manifests under `tag`. */
export async function pushIndex(
  target: RegistryTarget,
  repository: string,
  tag: string,
  manifests: PushedManifest[],
): Promise<{ digest: string }> {
  return putManifest(
    target,
    repository,
    tag,
    {
      schemaVersion: 2,
      mediaType: indexType,
      manifests: manifests.map(({ digest, size, mediaType, platform }) => ({
        digest,
        size,
        mediaType,
        platform,
      })),
    },
    indexType,
  );
}
