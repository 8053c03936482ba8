import type { KubeObject } from '@binnacle/common';
import { AppError, parseYamlDocuments, yamlLimits } from '@binnacle/common/server';
import type { Impersonation } from '../../kube/client.ts';
import { type ApiResource, objectPath, splitApiVersion } from '../../kube/discovery.ts';
import { stripObject } from '../../kube/objects.ts';
import { type ActionTarget, auditRefusal, performAction } from '../../scope/actions.ts';
import type { ResourcesContext } from './module.ts';

export const fieldManager = 'binnacle';
export const maxDocuments = 500;

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

interface Target {
  index: number;
  object: KubeObject;
  resource: ApiResource;
  version: string;
  namespace?: string;
  name: string;
}

const label = (t: Pick<Target, 'index' | 'object' | 'namespace' | 'name'>) =>
  `document ${t.index + 1} (${t.object.kind ?? '?'} ${t.namespace ? `${t.namespace}/` : ''}${t.name})`;

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

function targetOf(ctx: ResourcesContext, object: KubeObject, index: number, options: ApplyOptions): Target {
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

async function existing(
  ctx: ResourcesContext,
  t: Target,
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

/** Server-side apply of one object (as the caller when an identity is given). */
async function serverSideApply(
  ctx: ResourcesContext,
  t: Target,
  options: ApplyOptions,
  dryRun: boolean,
): Promise<{ result: ApplyResult; object: KubeObject }> {
  const before = await existing(ctx, t, options.as);
  const after = await ctx.cluster.client.request<KubeObject>({
    method: 'PATCH',
    path: objectPath({ ...t.resource, version: t.version }, t.name, t.namespace),
    query: { fieldManager, force: options.force ?? true, dryRun: dryRun ? 'All' : undefined },
    contentType: 'application/apply-patch+yaml',
    body: JSON.stringify(t.object),
    as: options.as,
  });
  stripObject(after);
  const action = !before
    ? 'created'
    : dryRun
      ? comparable(stripObject(before)) === comparable(after)
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
  };
}

const actionTarget = (t: Target): ActionTarget => ({
  kind: t.resource.kind,
  group: t.resource.group,
  namespace: t.namespace,
  name: t.name,
});

/** One object's apply as an action of the caller: audited, and on the timeline unless a dry run. */
function applyAsAction(ctx: ResourcesContext, t: Target, options: ApplyOptions, dryRun: boolean) {
  return performAction(
    ctx,
    options.as,
    'apply',
    actionTarget(t),
    async () => {
      const applied = await serverSideApply(ctx, t, options, dryRun);
      const what = `${t.resource.kind} ${t.namespace ? `${t.namespace}/` : ''}${t.name}`;
      const { action } = applied.result;
      return {
        ...applied,
        message: action === 'unchanged' ? `applied ${what}: nothing changed` : `${action} ${what}`,
        uid: applied.object.metadata?.uid,
      };
    },
    { dryRun },
  );
}

/**
 * Applies documents with server-side apply. Every document is first applied as a dry run; if any fails, nothing
 * is written and the error names the document (with the results so far). Only then are they applied for real,
 * each an action of the caller (audited, on the timeline).
 */
export async function applyDocuments(
  ctx: ResourcesContext,
  text: string,
  options: ApplyOptions,
): Promise<ApplyResult[]> {
  const objects = parseDocuments(text);
  if (objects.length === 0) throw new AppError('invalid_request', 'the body holds no documents');
  const targets = objects.map((object, index) => targetOf(ctx, object, index, options));
  const results: ApplyResult[] = [];
  for (const dryRun of options.dryRun ? [true] : [true, false]) {
    // The dry run ahead of a real apply is a check, not an action of its own: audited only when it refuses.
    const check = dryRun && !options.dryRun;
    results.length = 0;
    for (const t of targets) {
      try {
        const applied = check
          ? await serverSideApply(ctx, t, options, true)
          : await applyAsAction(ctx, t, options, dryRun);
        results.push(applied.result);
      } catch (error) {
        if (check) await auditRefusal(ctx, options.as, 'apply', actionTarget(t), error);
        if (!(error instanceof AppError)) throw error;
        const stage = check
          ? 'nothing was applied'
          : `documents before it were ${dryRun ? 'checked' : 'applied'}`;
        throw error.withContext(`${label(t)} (${stage})`, { results });
      }
    }
  }
  return results;
}

/** PUT of one object at its path: the body must name the same kind, namespace and name. */
export async function applyAt(
  ctx: ResourcesContext,
  path: { resource: ApiResource; namespace?: string; name: string },
  text: string,
  options: ApplyOptions,
): Promise<{ result: ApplyResult; object: KubeObject }> {
  const objects = parseDocuments(text);
  if (objects.length !== 1)
    throw new AppError(
      'invalid_request',
      `the body must hold exactly one object, it holds ${objects.length}`,
    );
  const t = targetOf(ctx, objects[0] as KubeObject, 0, { ...options, namespace: path.namespace });
  if (t.resource !== path.resource)
    throw new AppError(
      'invalid_request',
      `the body is a ${t.resource.kind}, the path names ${path.resource.kind}`,
    );
  if (t.name !== path.name || t.namespace !== path.namespace) {
    throw new AppError(
      'invalid_request',
      `the body names ${t.namespace ? `${t.namespace}/` : ''}${t.name}, the path ${path.namespace ? `${path.namespace}/` : ''}${path.name}`,
    );
  }
  const { result, object } = await applyAsAction(ctx, t, options, Boolean(options.dryRun));
  return { result, object };
}
