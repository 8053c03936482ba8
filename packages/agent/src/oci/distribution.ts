import { pipeline, type Readable } from 'node:stream';
import { AppError } from '@binnacle/common/server';
import { digestPattern, sha256, verifyDigest, verifying } from './digest.ts';
import { discard, header, type RegistryClient, type RegistryResponse } from './registry-client.ts';

export const indexTypes: readonly string[] = [
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
];
export const manifestTypes: readonly string[] = [
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.docker.distribution.manifest.v2+json',
];
/**
 * The registry's own bound on a manifest (distribution's default), and ours on every JSON document a registry
 * sends (configs, tag lists, catalog pages): a larger answer is none of them.
 */
export const maxDocumentBytes = 4 << 20;
/** Pages of `/v2/_catalog` read at the most (1 000 names each). */
const maxCatalogPages = 50;

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
}

/** A manifest or an index as the registry sent it, parsed, with the digest its bytes have. */
export interface Manifest {
  digest: string;
  mediaType: string;
  document: Record<string, unknown>;
}

const isDigest = (reference: string) => digestPattern.test(reference);
const named = (client: RegistryClient, repository: string, reference: string) =>
  `${client.registry}/${repository}${isDigest(reference) ? '@' : ':'}${reference}`;

const tooLarge = (what: string, maxBytes: number) =>
  new AppError(
    'registry_error',
    `${what} is larger than ${maxBytes % (1 << 20) ? `${maxBytes} bytes` : `${maxBytes >> 20} MiB`}`,
  );

/** A 2xx answer's whole body, refused (and the rest left unread) once it passes `maxBytes`. */
async function readBounded(response: RegistryResponse, maxBytes: number, what: string): Promise<Buffer> {
  if (Number(header(response.headers, 'content-length') ?? 0) > maxBytes) {
    discard(response.body);
    throw tooLarge(what, maxBytes);
  }
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > maxBytes) {
      discard(response.body);
      throw tooLarge(what, maxBytes);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function json(bytes: Buffer, what: string): Record<string, unknown> {
  try {
    const value = JSON.parse(bytes.toString('utf8')) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new AppError('registry_error', `${what} is not a JSON document`);
}

/**
 * The manifest (or index) `reference` names, of one of the `accept`ed media types. Fetched by digest, its bytes
 * must hash to it; fetched by tag, its digest is what its bytes hash to.
 */
export async function fetchManifest(
  client: RegistryClient,
  repository: string,
  reference: string,
  accept: readonly string[],
): Promise<Manifest> {
  const what = `the manifest of ${named(client, repository, reference)}`;
  const response = await client.get(`/v2/${repository}/manifests/${reference}`, accept.join(', '));
  const bytes = await readBounded(response, maxDocumentBytes, what);
  if (isDigest(reference)) verifyDigest(bytes, reference, what);
  const document = json(bytes, what);
  const contentType = header(response.headers, 'content-type')?.split(';')[0];
  return {
    digest: isDigest(reference) ? reference : sha256(bytes),
    mediaType: (document.mediaType as string | undefined) ?? contentType ?? '',
    document,
  };
}

/** Whether a manifest is an index (a multi-platform image): by its media type, or by its list of manifests. */
export const isIndex = (manifest: Manifest) =>
  indexTypes.includes(manifest.mediaType) || Array.isArray(manifest.document.manifests);

/** A blob of at most `maxBytes` (the manifest's size for it is checked first), verified against its digest. */
export async function fetchBlob(
  client: RegistryClient,
  repository: string,
  blob: { digest: string; size?: number },
  maxBytes: number,
): Promise<Buffer> {
  const what = `the blob ${client.registry}/${repository}@${blob.digest}`;
  if ((blob.size ?? 0) > maxBytes) throw tooLarge(what, maxBytes);
  const bytes = await readBounded(
    await client.get(`/v2/${repository}/blobs/${blob.digest}`, '*/*'),
    maxBytes,
    what,
  );
  verifyDigest(bytes, blob.digest, what);
  return bytes;
}

/** A blob parsed as JSON (an image's config, a Helm chart's metadata), bounded like a manifest. */
export async function fetchJsonBlob(
  client: RegistryClient,
  repository: string,
  blob: { digest: string; size?: number },
  what: string,
): Promise<Record<string, unknown>> {
  return json(await fetchBlob(client, repository, blob, maxDocumentBytes), what);
}

/**
 * A blob as a stream, however large: its bytes pass as they arrive, and the stream fails at its end when they
 * do not hash to `digest`, so whoever keeps them keeps nothing of a blob that ends in an error.
 */
export async function blobStream(
  client: RegistryClient,
  repository: string,
  digest: string,
  label: string,
): Promise<Readable> {
  const check = verifying(digest, label);
  const { body } = await client.get(`/v2/${repository}/blobs/${digest}`, '*/*');
  // pipeline destroys the check with the body's error, so the reader sees it.
  return pipeline(body, check, () => undefined);
}

/** Every repository name of the registry's catalog, page by page as its `Link` headers lead. */
export async function listCatalog(client: RegistryClient): Promise<string[]> {
  const names: string[] = [];
  let path: string | undefined = '/v2/_catalog?n=1000';
  for (let page = 0; path && page < maxCatalogPages; page += 1) {
    const response = await client.get(path, 'application/json');
    const body = json(await readBounded(response, maxDocumentBytes, path), `${client.registry}${path}`);
    if (Array.isArray(body.repositories)) names.push(...body.repositories.map(String));
    const next = /<([^>]+)>;\s*rel="next"/.exec(header(response.headers, 'link') ?? '')?.[1];
    // A next page is asked of the same registry, whatever host its link names.
    const url = next ? new URL(next, 'http://registry') : undefined;
    path = url && `${url.pathname}${url.search}`;
  }
  return names;
}

/** The tags of a repository. */
export async function listTags(client: RegistryClient, repository: string): Promise<string[]> {
  const path = `/v2/${repository}/tags/list?n=10000`;
  const response = await client.get(path, 'application/json');
  const body = json(await readBounded(response, maxDocumentBytes, path), `${client.registry}${path}`);
  return Array.isArray(body.tags) ? body.tags.map(String) : [];
}
