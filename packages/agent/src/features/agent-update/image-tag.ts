/** A tag an image reference may carry (the OCI distribution spec's rule): what `POST /api/agent/self-upgrade` takes. */
export const tagPattern = '^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$';

/**
 * The image with another tag: the repository (registry host, port and path) is kept as it is, so an agent pulled
 * from a private mirror keeps pulling from it. A digest goes, since it would pin the old image whatever the tag.
 */
export function retag(image: string, tag: string): string {
  const named = image.split('@', 1)[0] as string;
  // A colon after the last slash starts the tag; one before it is a registry's port.
  const repository =
    named.lastIndexOf(':') > named.lastIndexOf('/') ? named.slice(0, named.lastIndexOf(':')) : named;
  return `${repository}:${tag}`;
}
