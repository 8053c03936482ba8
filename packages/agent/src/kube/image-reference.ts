import { badRequest, echo } from '@binnacle/common/server';
import { dockerHub } from '../oci/registry-client.ts';

/** An image reference split the way registries address it. */
export interface ImageReference {
  /** host[:port] as written (`docker.io` for Docker Hub). */
  registry: string;
  /** The repository path, `library/` added for Docker Hub's official images. */
  repository: string;
  tag?: string;
  digest?: string;
  /** The tag or digest the manifest is fetched by (the digest when both are given). */
  version: string;
}

// The grammar of distribution/reference: lowercase path components, a tag of at most 128 characters, a digest
// of algorithm:hex.
const component = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const pathPattern = new RegExp(`^${component}(?:/${component})*$`);
const tagPattern = /^\w[\w.-]{0,127}$/;
const digestPattern = /^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-f0-9]{32,}$/;
const hostPattern =
  /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*|\[[0-9a-fA-F:]+\])(?::\d{1,5})?$/;

/**
 * `[host[:port]/]path[:tag][@digest]` as the container runtime reads it: a first component with a dot, a colon
 * or `localhost` names the registry, otherwise Docker Hub; no tag and no digest means `latest`. Anything else
 * is a 400 naming the parameter (or `field`).
 */
export function parseReference(input: string, field = 'query parameter "image"'): ImageReference {
  const invalid = (why: string) => badRequest(`${field}: ${echo(input)} ${why}`);
  const [rest = '', digest, extra] = input.split('@');
  if (extra !== undefined) throw invalid('has more than one "@"');
  if (digest !== undefined && !digestPattern.test(digest)) throw invalid('has a malformed digest');
  const slash = rest.indexOf('/');
  const first = slash === -1 ? '' : rest.slice(0, slash);
  const hasHost = first.includes('.') || first.includes(':') || first === 'localhost';
  const host = hasHost ? first : dockerHub;
  const remainder = hasHost ? rest.slice(slash + 1) : rest;
  const colon = remainder.lastIndexOf(':');
  const path = colon === -1 ? remainder : remainder.slice(0, colon);
  const tag = colon === -1 ? undefined : remainder.slice(colon + 1);
  if (!hostPattern.test(host)) throw invalid('names no valid registry host');
  if (!pathPattern.test(path))
    throw invalid('is not an image reference (lowercase repository path, then :tag or @digest)');
  if (tag !== undefined && !tagPattern.test(tag)) throw invalid('has a malformed tag');
  const hub = host === dockerHub || host === 'index.docker.io';
  const repository = hub && !path.includes('/') ? `library/${path}` : path;
  const chosenTag = tag ?? (digest ? undefined : 'latest');
  return {
    registry: hub ? dockerHub : host,
    repository,
    tag: chosenTag,
    digest,
    version: digest ?? chosenTag ?? 'latest',
  };
}

/** The reference written out in full, as answers name it. */
export const formatReference = (ref: ImageReference) =>
  `${ref.registry}/${ref.repository}${ref.tag ? `:${ref.tag}` : ''}${ref.digest ? `@${ref.digest}` : ''}`;
