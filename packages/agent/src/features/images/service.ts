import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { AppError, badRequest, notFound } from '@binnacle/common/server';
import type { Impersonation } from '../../kube/client.ts';
import { parseReference } from '../../kube/image-reference.ts';
import { blobStream, type Descriptor } from '../../oci/distribution.ts';
import { openTar } from '../../oci/open-tar.ts';
import { type AuthMethod, RegistryClient } from '../../oci/registry-client.ts';
import type { TarEntry, TarReader } from '../../oci/tar-reader.ts';
import { type FileNode, FilesystemTree } from './filesystem-tree.ts';
import { LayerCache } from './layer-cache.ts';
import { type ResolvedImage, resolveImage } from './manifests.ts';
import type { ImagesContext } from './module.ts';
import { clusterPlatform, parsePlatform } from './platform.ts';
import { type CredentialSources, registryCredentials } from './pull-secrets.ts';

export interface ImageQuery extends CredentialSources {
  image: string;
  platform?: string;
}

export interface ImageMetadata extends Omit<ResolvedImage, 'layers'> {
  registry: string;
  repository: string;
  layers: Descriptor[];
  layerCount: number;
  /** Compressed bytes of all layers, as the registry stores them. */
  totalSize: number;
  authMethod: AuthMethod;
  /** The pull secret (`namespace/name`) whose credentials were used. */
  credentialSource?: string;
  /** Whether every layer is in the agent's disk cache already (an inspect answers without downloading). */
  cached: boolean;
}

export interface ImageFilesystem {
  image: string;
  digest: string;
  platform: string;
  root: FileNode;
  totalFiles: number;
  totalSize: number;
  layers: Descriptor[];
}

export interface ImageFile {
  name: string;
  size: number;
  content: Readable;
}

export interface ImageLimits {
  cacheDir: string;
  cacheMaxBytes: number;
  fileMaxBytes: number;
}

interface OpenedImage {
  client: RegistryClient;
  resolved: ResolvedImage;
  repository: string;
  credentialSource?: string;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/**
 * Image manifests, configs and filesystems straight from their registry: layers go through a bounded disk
 * cache and are read as streams, so only the tree of paths (never a file's content) is held in memory.
 */
export class ImageService {
  readonly #ctx: ImagesContext;
  readonly #cache: LayerCache;
  readonly #fileMaxBytes: number;

  constructor(ctx: ImagesContext, limits: ImageLimits) {
    this.#ctx = ctx;
    this.#cache = new LayerCache(limits.cacheDir, limits.cacheMaxBytes);
    this.#fileMaxBytes = limits.fileMaxBytes;
  }

  async #open(query: ImageQuery, as: Impersonation | undefined): Promise<OpenedImage> {
    const ref = parseReference(query.image);
    // Checked before anything is fetched, so a bad one is a 400 whether or not the image has an index.
    const asked = query.platform ? parsePlatform(query.platform) : undefined;
    const credentials = await registryCredentials(this.#ctx, ref.registry, query, as);
    const client = new RegistryClient(ref.registry, credentials);
    const resolved = await resolveImage(client, ref, () => asked ?? clusterPlatform(this.#ctx));
    return { client, resolved, repository: ref.repository, credentialSource: credentials?.source };
  }

  async metadata(query: ImageQuery, as: Impersonation | undefined): Promise<ImageMetadata> {
    const { client, resolved, repository, credentialSource } = await this.#open(query, as);
    const cached = await Promise.all(resolved.layers.map((l) => this.#cache.has(l.digest)));
    return {
      ...resolved,
      registry: client.registry,
      repository,
      layerCount: resolved.layers.length,
      totalSize: resolved.layers.reduce((sum, l) => sum + (l.size ?? 0), 0),
      authMethod: client.authMethod,
      ...(credentialSource ? { credentialSource } : {}),
      cached: cached.every(Boolean),
    };
  }

  /** Reads a layer's tar (from the cache, fetching it first when missing). */
  async #layer(opened: OpenedImage, index: number): Promise<TarReader> {
    const layer = opened.resolved.layers[index] as Descriptor;
    const label = `${opened.resolved.image} layer ${index + 1}`;
    const source = await this.#cache.open(
      layer.digest,
      layer.size,
      () => blobStream(opened.client, opened.repository, layer.digest, label),
      label,
    );
    return openTar(source, layer.mediaType ?? '', label);
  }

  async #tree(opened: OpenedImage): Promise<FilesystemTree> {
    const tree = new FilesystemTree();
    for (let index = 0; index < opened.resolved.layers.length; index += 1) {
      tree.beginLayer(index);
      const tar = await this.#layer(opened, index);
      await readLayer(tar, `${opened.resolved.image} layer ${index + 1}`, (entry) => {
        tree.add(entry);
        return false;
      });
    }
    return tree;
  }

  async inspect(query: ImageQuery, as: Impersonation | undefined): Promise<ImageFilesystem> {
    const opened = await this.#open(query, as);
    const { root, totalFiles, totalSize } = (await this.#tree(opened)).result();
    const { image, digest, platform, layers } = opened.resolved;
    return { image, digest, platform, root, totalFiles, totalSize, layers };
  }

  /**
   * One regular file of the image (symbolic links followed, hard links read from their target), streamed from
   * its layer. 404 when the path is not in the image, 400 for a directory, 413 above the size cap.
   */
  async file(query: ImageQuery & { path: string }, as: Impersonation | undefined): Promise<ImageFile> {
    const opened = await this.#open(query, as);
    const image = opened.resolved.image;
    const found = (await this.#tree(opened)).resolve(query.path);
    if (!found) throw notFound(`${query.path} is not in the filesystem of ${image}`);
    const { node } = found;
    if (node.type === 'directory') throw badRequest(`${query.path} is a directory of ${image}, not a file`);
    if (node.type !== 'file' && node.type !== 'hardlink')
      throw badRequest(`${query.path} is a special file (${node.type}) of ${image}, which has no content`);
    // A hard link's bytes are those of the member it links to, earlier in the same layer.
    const member = node.type === 'hardlink' ? (node.linkTarget ?? '') : found.path;
    this.#refuseLarge(node.size, query.path);
    const tar = await this.#layer(opened, node.layer);
    let size = -1;
    await readLayer(tar, `${image} layer ${node.layer + 1}`, (entry) => {
      if (entry.path !== member || entry.type !== 'file') return false;
      size = entry.size;
      return true;
    });
    if (size < 0 || size > this.#fileMaxBytes) await tar.close();
    if (size < 0) throw notFound(`${query.path} is not in the filesystem of ${image}`);
    this.#refuseLarge(size, query.path);
    const content = Readable.from(tar.content());
    content.once('close', () => void tar.close());
    return { name: basename(found.path) || 'file', size, content };
  }

  #refuseLarge(size: number, path: string): void {
    if (size > this.#fileMaxBytes)
      throw new AppError(
        'image_file_too_large',
        `${path} is ${mib(size)}; the agent serves image files up to ${mib(this.#fileMaxBytes)} (--image-file-max-size)`,
      );
  }
}

/**
 * Calls `visit` with every member of a layer until it answers true (the reader is then left at that member's
 * content) or the layer ends (the reader is closed). A layer that is no tar is a 502 naming it.
 */
async function readLayer(tar: TarReader, label: string, visit: (entry: TarEntry) => boolean): Promise<void> {
  try {
    for (let entry = await tar.next(); entry; entry = await tar.next()) if (visit(entry)) return;
    await tar.close();
  } catch (error) {
    await tar.close();
    if (error instanceof AppError) throw error;
    throw new AppError('registry_error', `${label} cannot be read: ${(error as Error).message}`);
  }
}

/** The image cache's directory under the agent's data dir, unless set. */
export const defaultImageCacheDir = (dataDir: string) => join(dataDir, 'image-cache');
