import type { KubeObject } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import type { ApiResource } from '../../kube/discovery.ts';
import { type ActionTarget, auditRefusal, performAction } from '../../scope/actions.ts';
import {
  type ApplyOptions,
  type ApplyResult,
  type ApplyTarget,
  parseDocuments,
  serverSideApply,
  targetOf,
} from '../../scope/server-side-apply.ts';
import type { ResourcesContext } from './module.ts';

const label = (t: Pick<ApplyTarget, 'index' | 'object' | 'namespace' | 'name'>) =>
  `document ${t.index + 1} (${t.object.kind ?? '?'} ${t.namespace ? `${t.namespace}/` : ''}${t.name})`;

const actionTarget = (t: ApplyTarget): ActionTarget => ({
  kind: t.resource.kind,
  group: t.resource.group,
  namespace: t.namespace,
  name: t.name,
});

/** One object's apply as an action of the caller: audited, and on the timeline unless a dry run. */
function applyAsAction(ctx: ResourcesContext, t: ApplyTarget, options: ApplyOptions, dryRun: boolean) {
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
