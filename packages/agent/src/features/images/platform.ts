import { badRequest, notFound } from '@binnacle/common/server';
import type { ImagesContext } from './module.ts';

export interface Platform {
  os: string;
  architecture: string;
  variant?: string;
}

export const formatPlatform = (p: Platform) => [p.os, p.architecture, p.variant].filter(Boolean).join('/');

/** `os/arch[/variant]` (as `--platform` takes it); a 400 naming the parameter otherwise. */
export function parsePlatform(value: string): Platform {
  const [os, architecture, variant, extra] = value.split('/');
  if (!os || !architecture || extra !== undefined || variant === '')
    throw badRequest(
      `query parameter "platform": "${value}" is not os/architecture[/variant], e.g. linux/arm64`,
    );
  return { os, architecture, ...(variant ? { variant } : {}) };
}

const fallback: Platform = { os: 'linux', architecture: 'amd64' };

/**
 * The platform most of the cluster's nodes run (their `kubernetes.io/os` and `kubernetes.io/arch` labels, else
 * their nodeInfo): what a pod of the image would most likely get. linux/amd64 when no node is visible.
 */
export function clusterPlatform(ctx: ImagesContext): Platform {
  const resource = ctx.cluster.find('', 'Node');
  const counts = new Map<string, number>();
  for (const node of resource ? ctx.cluster.cache.list(resource) : []) {
    const labels = node.metadata?.labels ?? {};
    const info = (
      node.status as { nodeInfo?: { operatingSystem?: string; architecture?: string } } | undefined
    )?.nodeInfo;
    const os = labels['kubernetes.io/os'] ?? info?.operatingSystem;
    const arch = labels['kubernetes.io/arch'] ?? info?.architecture;
    if (os && arch) counts.set(`${os}/${arch}`, (counts.get(`${os}/${arch}`) ?? 0) + 1);
  }
  // Ties go to the name first in order, so the answer does not depend on the cache's order.
  const best = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
  return best ? parsePlatform(best[0]) : fallback;
}

export interface IndexEntry {
  digest: string;
  mediaType?: string;
  size?: number;
  platform?: Platform & { 'os.version'?: string };
}

/**
 * The manifest of an index for a platform: same os and architecture, and the variant when one is asked for
 * (without one, the entry without a variant, else the first). A 404 listing what the index offers otherwise.
 * Attestation manifests (platform unknown/unknown) are never picked.
 */
export function pickManifest(entries: IndexEntry[], wanted: Platform, image: string): IndexEntry {
  const matching = entries.filter(
    (e) => e.platform?.os === wanted.os && e.platform.architecture === wanted.architecture,
  );
  const pick = wanted.variant
    ? matching.find((e) => e.platform?.variant === wanted.variant)
    : (matching.find((e) => !e.platform?.variant) ?? matching[0]);
  if (pick) return pick;
  const offered = entries
    .flatMap((e) => (e.platform && e.platform.os !== 'unknown' ? [formatPlatform(e.platform)] : []))
    .join(', ');
  throw notFound(
    `${image} has no image for ${formatPlatform(wanted)}; it offers ${offered || 'no platform'}`,
  );
}
