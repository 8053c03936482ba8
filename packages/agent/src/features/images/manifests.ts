import { createHash } from 'node:crypto';
import { AppError } from '@binnacle/common/server';
import { formatReference, type ImageReference } from '../../kube/image-reference.ts';
import { formatPlatform, type IndexEntry, type Platform, pickManifest } from './platform.ts';
import { discard, type RegistryClient } from './registry-client.ts';

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
}

/** The image manifest of one platform, its config, and where it came from. */
export interface ResolvedImage {
  image: string;
  /** Digest of the image manifest (of the chosen platform). */
  digest: string;
  /** Digest of the index it was picked from, for a multi-platform image. */
  indexDigest?: string;
  mediaType: string;
  platform: string;
  manifest: Record<string, unknown>;
  config: Record<string, unknown>;
  layers: Descriptor[];
}

const indexTypes = [
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
];
const manifestTypes = [
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.docker.distribution.manifest.v2+json',
];
/** The registry's own bound on a manifest (distribution's default); a larger answer is no manifest. */
const maxDocumentBytes = 4 << 20;

async function document(
  client: RegistryClient,
  path: string,
  accept: string,
  label: string,
): Promise<{ bytes: Buffer; mediaType?: string }> {
  const response = await client.get(path, accept);
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > maxDocumentBytes) {
      discard(response.body);
      throw new AppError('registry_error', `${label}: ${path} is larger than 4 MiB`);
    }
    chunks.push(chunk);
  }
  const type = response.headers['content-type'];
  return { bytes: Buffer.concat(chunks), mediaType: (Array.isArray(type) ? type[0] : type)?.split(';')[0] };
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

const sha256 = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/**
 * Fetches the manifest of `ref` and, for an index (multi-platform image), the manifest for the platform
 * `platformOf` names (asked only then: it may read the cluster's nodes); then the image's config. Answers 404
 * when the image or the platform is not there.
 */
export async function resolveImage(
  client: RegistryClient,
  ref: ImageReference,
  platformOf: () => Platform,
): Promise<ResolvedImage> {
  const image = formatReference(ref);
  const base = `/v2/${ref.repository}`;
  const top = await document(
    client,
    `${base}/manifests/${ref.version}`,
    [...indexTypes, ...manifestTypes].join(', '),
    image,
  );
  let body = json(top.bytes, `the manifest of ${image}`);
  let mediaType = (body.mediaType as string | undefined) ?? top.mediaType ?? '';
  let digest = ref.digest ?? sha256(top.bytes);
  let indexDigest: string | undefined;
  let chosen: Platform | undefined;
  if (indexTypes.includes(mediaType) || Array.isArray(body.manifests)) {
    indexDigest = digest;
    const platform = platformOf();
    const entry = pickManifest((body.manifests ?? []) as IndexEntry[], platform, image);
    const inner = await document(
      client,
      `${base}/manifests/${entry.digest}`,
      manifestTypes.join(', '),
      image,
    );
    body = json(inner.bytes, `the manifest of ${image} for ${formatPlatform(platform)}`);
    mediaType = (body.mediaType as string | undefined) ?? inner.mediaType ?? '';
    digest = entry.digest;
    chosen = entry.platform ?? platform;
  }
  const config = body.config as Descriptor | undefined;
  if (!config?.digest || !Array.isArray(body.layers))
    throw new AppError(
      'registry_error',
      `${image} is not a container image (its manifest has no config or layers)`,
    );
  const configBody = json(
    (await document(client, `${base}/blobs/${config.digest}`, '*/*', image)).bytes,
    `the config of ${image}`,
  );
  if (!indexDigest) {
    // A single-platform image says its platform in its config.
    const os = configBody.os as string | undefined;
    const architecture = configBody.architecture as string | undefined;
    if (os && architecture)
      chosen = { os, architecture, ...(configBody.variant ? { variant: configBody.variant as string } : {}) };
  }
  return {
    image,
    digest,
    indexDigest,
    mediaType,
    platform: chosen ? formatPlatform(chosen) : 'unknown',
    manifest: body,
    config: configBody,
    layers: (body.layers as Descriptor[]).map((l) => ({
      mediaType: l.mediaType,
      digest: l.digest,
      size: l.size,
    })),
  };
}
