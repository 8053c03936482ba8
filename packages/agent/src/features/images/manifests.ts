import { AppError } from '@binnacle/common/server';
import { formatReference, type ImageReference } from '../../kube/image-reference.ts';
import {
  type Descriptor,
  fetchJsonBlob,
  fetchManifest,
  indexTypes,
  isIndex,
  manifestTypes,
} from '../../oci/distribution.ts';
import type { RegistryClient } from '../../oci/registry-client.ts';
import { formatPlatform, type IndexEntry, type Platform, pickManifest } from './platform.ts';

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
  const top = await fetchManifest(client, ref.repository, ref.version, [...indexTypes, ...manifestTypes]);
  let manifest = top;
  let indexDigest: string | undefined;
  let chosen: Platform | undefined;
  if (isIndex(top)) {
    indexDigest = top.digest;
    const platform = platformOf();
    const entry = pickManifest((top.document.manifests ?? []) as IndexEntry[], platform, image);
    manifest = await fetchManifest(client, ref.repository, entry.digest, manifestTypes);
    chosen = entry.platform ?? platform;
  }
  const body = manifest.document;
  const config = body.config as Descriptor | undefined;
  if (!config?.digest || !Array.isArray(body.layers))
    throw new AppError(
      'registry_error',
      `${image} is not a container image (its manifest has no config or layers)`,
    );
  const configBody = await fetchJsonBlob(client, ref.repository, config, `the config of ${image}`);
  if (!indexDigest) {
    // A single-platform image says its platform in its config.
    const os = configBody.os as string | undefined;
    const architecture = configBody.architecture as string | undefined;
    if (os && architecture)
      chosen = { os, architecture, ...(configBody.variant ? { variant: configBody.variant as string } : {}) };
  }
  return {
    image,
    digest: manifest.digest,
    indexDigest,
    mediaType: manifest.mediaType,
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
