import type { KubeObject } from '@binnacle/common';
import { AppError, parseYamlDocuments, yamlLimits } from '@binnacle/common/server';
import type { Impersonation } from '../kube/client.ts';
import type { Cluster } from '../kube/cluster.ts';
import { type ApiResource, objectPath, splitApiVersion } from '../kube/discovery.ts';
import { stripObject } from '../kube/objects.ts';

// Server-side apply of one object, and the parsing that comes before it: the resources feature applies with it,
// the selection impact (docs/adr/0124-selection-impact.md) dry-runs an edit with it.

export const fieldManager = 'binnacle';
export const maxDocuments = 500;

/** What applying reads of the agent: the served cluster (its discovery and client). */
export interface ApplySource {
  readonly cluster: Cluster;
}

export interface ApplyOptions {
  dryRun?: boolean;
  /** Take ownership of fields another manager set (server-side apply conflicts). Default true, as kubectl's UIs do. */
  force?: boolean;
  /** Namespace for namespaced documents that name none (default `default`). */
  namespace?: string;
  as?: Impersonation;
}

export interface ApplyResult {
  index: number;
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
  action: 'created' | 'configured' | 'unchanged';
  dryRun: boolean;
}

/** One document, resolved to the kind the cluster serves and the namespace it lands in. */
export interface ApplyTarget {
  index: number;
  object: KubeObject;
  resource: ApiResource;
  version: string;
  namespace?: string;
  name: string;
}

/**
 * Splits multi-document YAML (or JSON); `kind: List` documents contribute their items. Empty documents are
 * skipped. Aliases, expansion and nesting are bounded before anything is converted (ADR 0046).
 */
export function parseDocuments(text: string): KubeObject[] {
  const objects: KubeObject[] = [];
  parseYamlDocuments(text, yamlLimits.manifests).forEach((value, index) => {
    if (value === null || value === undefined) return;
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw new AppError(
        'invalid_yaml',
        `document ${index + 1}: expected a Kubernetes object, got ${Array.isArray(value) ? 'a list' : typeof value}`,
      );
    }
    const object = value as KubeObject & { items?: KubeObject[] };
    if (object.kind?.endsWith('List') && Array.isArray(object.items)) objects.push(...object.items);
    else objects.push(object);
  });
  if (objects.length > maxDocuments)
    throw new AppError('invalid_request', `${objects.length} documents; at most ${maxDocuments} per request`);
  return objects;
}

/** The document's kind as the cluster serves it, its name, and its namespace (a namespaced one gets one). */
export function targetOf(
  ctx: ApplySource,
  object: KubeObject,
  index: number,
  options: Pick<ApplyOptions, 'namespace'>,
): ApplyTarget {
  const where = `document ${index + 1}`;
  if (typeof object.apiVersion !== 'string' || !object.apiVersion)
    throw new AppError('invalid_request', `${where}: missing apiVersion`);
  if (typeof object.kind !== 'string' || !object.kind)
    throw new AppError('invalid_request', `${where}: missing kind`);
  const name = object.metadata?.name;
  if (typeof name !== 'string' || !name)
    throw new AppError(
      'invalid_request',
      `${where}: missing metadata.name (generateName is not supported by apply)`,
    );
  const { group, version } = splitApiVersion(object.apiVersion);
  const resource = ctx.cluster.resources().find((r) => r.group === group && r.kind === object.kind);
  if (!resource)
    throw new AppError(
      'unknown_kind',
      `${where}: the cluster serves no ${object.kind} in ${object.apiVersion}`,
    );
  let namespace = object.metadata?.namespace;
  if (resource.namespaced) {
    namespace ??= options.namespace ?? 'default';
    object.metadata = { ...object.metadata, namespace };
  } else if (namespace) {
    throw new AppError(
      'invalid_request',
      `${where}: ${object.kind} is cluster-scoped but names namespace "${namespace}"`,
    );
  }
  return { index, object, resource, version: version as string, namespace, name };
}

const comparable = (o: KubeObject | undefined) => {
  if (!o) return undefined;
  const { resourceVersion, generation, managedFields, ...metadata } = o.metadata ?? {};
  return JSON.stringify({ ...o, metadata });
};

/** The object as it is now, read as the caller; undefined when it does not exist yet. */
export async function existingObject(
  ctx: ApplySource,
  t: ApplyTarget,
  as?: Impersonation,
): Promise<KubeObject | undefined> {
  try {
    return await ctx.cluster.client.request<KubeObject>({
      path: objectPath({ ...t.resource, version: t.version }, t.name, t.namespace),
      as,
    });
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') return undefined;
    throw error;
  }
}

/** Server-side apply of one object (as the caller when an identity is given), with what it was before. */
export async function serverSideApply(
  ctx: ApplySource,
  t: ApplyTarget,
  options: ApplyOptions,
  dryRun: boolean,
): Promise<{ result: ApplyResult; object: KubeObject; before?: KubeObject }> {
  const before = await existingObject(ctx, t, options.as);
  const after = await ctx.cluster.client.request<KubeObject>({
    method: 'PATCH',
    path: objectPath({ ...t.resource, version: t.version }, t.name, t.namespace),
    query: { fieldManager, force: options.force ?? true, dryRun: dryRun ? 'All' : undefined },
    contentType: 'application/apply-patch+yaml',
    body: JSON.stringify(t.object),
    as: options.as,
  });
  stripObject(after);
  if (before) stripObject(before);
  const action = !before
    ? 'created'
    : dryRun
      ? comparable(before) === comparable(after)
        ? 'unchanged'
        : 'configured'
      : before.metadata?.resourceVersion === after.metadata?.resourceVersion
        ? 'unchanged'
        : 'configured';
  return {
    result: {
      index: t.index,
      apiVersion: t.object.apiVersion as string,
      kind: t.resource.kind,
      namespace: t.namespace,
      name: t.name,
      action,
      dryRun,
    },
    object: after,
    before,
  };
}
