import type { KubeObject } from '@binnacle/common';

export interface KubeList {
  metadata?: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items?: KubeObject[];
}

const lastApplied = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * Drops what the agent never serves and that makes up much of an object's size: managedFields and the
 * last-applied annotation (a full copy of the object). Replaces `metadata` (and `annotations`) with copies
 * rather than deleting keys: a deleted key turns a V8 object into a slower, larger dictionary, and the cache
 * holds tens of thousands of them. Returns the object, whose metadata it replaced.
 */
export function stripObject<T extends KubeObject>(object: T): T {
  const metadata = object.metadata;
  if (!metadata) return object;
  const annotations = metadata.annotations;
  const applied = annotations !== undefined && lastApplied in annotations;
  if (!metadata.managedFields && !applied) return object;
  const { managedFields: _dropped, ...kept } = metadata;
  if (applied) {
    const { [lastApplied]: _copy, ...rest } = annotations;
    if (Object.keys(rest).length > 0) kept.annotations = rest;
    else delete kept.annotations;
  }
  object.metadata = kept;
  return object;
}

export const objectKey = (object: KubeObject) =>
  object.metadata?.namespace
    ? `${object.metadata.namespace}/${object.metadata.name}`
    : (object.metadata?.name ?? '');

/**
 * A generated name: `base` shortened so `base + suffix` fits in `max` characters (63 for names that become label
 * values, such as Jobs' and Pods'), never ending the shortened part on a dash or dot.
 */
export function nameWithSuffix(base: string, suffix: string, max = 63): string {
  return `${base.slice(0, max - suffix.length).replace(/[-.]+$/, '')}${suffix}`;
}
