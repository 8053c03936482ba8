import type { KubeObject } from '@binnacle/common';

export interface KubeList {
  metadata?: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items?: KubeObject[];
}

const lastApplied = 'kubectl.kubernetes.io/last-applied-configuration';
const appliedVersion = Symbol('appliedApiVersion');
// kubectl writes the copy as Go marshals a map, keys sorted: the first apiVersion is the object's own.
const appliedVersionPattern = /"apiVersion":\s*"([^"]{1,128})"/;

/**
 * One copy of each string value cached objects repeat (ADR 0133). `JSON.parse` gives every value longer than a
 * few characters a string of its own, so 10 000 pods held 10 000 copies each of `/dev/termination-log`, their
 * image, their tolerations' keys and their owners' names: 10.6 MB of strings, 1.3 MB once shared. The table keeps
 * values up to `longestShared` characters; at `sharedLimit` entries it starts again (objects keep their copies).
 */
const sharedValues = new Map<string, string>();
const shortestShared = 8;
const longestShared = 256;
const sharedLimit = 200_000;
/** Bounds the walk's recursion: far deeper than Kubernetes objects nest, so a pathological one cannot exhaust the stack. */
const deepestShared = 64;

function sharedString(text: string): string {
  if (text.length < shortestShared || text.length > longestShared) return text;
  const known = sharedValues.get(text);
  if (known !== undefined) return known;
  if (sharedValues.size >= sharedLimit) sharedValues.clear();
  sharedValues.set(text, text);
  return text;
}

/**
 * The apiVersion the object was last applied with (its last-applied copy), when it differs from the version the
 * cache holds it at: the API server answers every object at its preferred version, so this is the one trace of a
 * manifest written against an older API (docs/upgrade-readiness.md).
 */
export const appliedApiVersion = (object: KubeObject): string | undefined =>
  (object as { [appliedVersion]?: string })[appliedVersion];

function keepAppliedVersion(object: KubeObject, copy: string | undefined): void {
  const match = copy === undefined ? null : appliedVersionPattern.exec(copy);
  if (!match?.[1] || match[1] === object.apiVersion) return;
  // A copy, so the kept version never holds on to the annotation it was sliced from; not enumerable: never
  // served, compared or spread with the object.
  const version = sharedString(Buffer.from(match[1], 'utf8').toString('utf8'));
  Object.defineProperty(object, appliedVersion, { value: version, enumerable: false });
}

/**
 * Drops what the agent never serves and that makes up much of an object's size: managedFields and the
 * last-applied annotation (a full copy of the object), keeping only the apiVersion it names when that differs. Replaces `metadata` (and `annotations`) with copies
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
    const { [lastApplied]: copy, ...rest } = annotations;
    keepAppliedVersion(object, copy);
    if (Object.keys(rest).length > 0) kept.annotations = rest;
    else delete kept.annotations;
  }
  object.metadata = kept;
  return object;
}

const partial = Symbol('cachedPartially');

/**
 * Whether the cache keeps this kind's objects in part (ADR 0131): CustomResourceDefinitions without their versions'
 * schemas, the largest objects most clusters hold and read from the cache by nobody (tables take the printer
 * columns, upgrade readiness the versions and their flags). A read of one whole object goes to the API server.
 */
export const cachedInPart = (group: string, kind: string) =>
  group === 'apiextensions.k8s.io' && kind === 'CustomResourceDefinition';

/** True for an object the cache keeps in part: its whole form is the API server's. */
export const isPartial = (object: KubeObject) => partial in object;

/** Replaces, in place, each string value of a freshly parsed object with its shared copy. */
export function shareStrings(value: object, depth = 0): void {
  if (depth > deepestShared) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const item: unknown = value[i];
      if (typeof item === 'string') value[i] = sharedString(item);
      else if (typeof item === 'object' && item !== null) shareStrings(item, depth + 1);
    }
    return;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const item = record[key];
    if (typeof item === 'string') record[key] = sharedString(item);
    else if (typeof item === 'object' && item !== null) shareStrings(item, depth + 1);
  }
}

/**
 * An object as the cache keeps it: `stripObject`'s form with its repeated strings shared, and for a kind
 * `cachedInPart`, without its versions' `schema` (copies of `spec` and the versions, not deletions, as in
 * `stripObject`), marked so reads know.
 */
export function cacheForm<T extends KubeObject>(group: string, object: T): T {
  stripObject(object);
  if (cachedInPart(group, object.kind ?? '')) {
    const spec = object.spec as { versions?: Record<string, unknown>[] } | undefined;
    if (spec && Array.isArray(spec.versions))
      object.spec = {
        ...spec,
        versions: spec.versions.map(({ schema: _dropped, ...kept }) => kept),
      };
    Object.defineProperty(object, partial, { value: true, enumerable: false });
  }
  shareStrings(object);
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
