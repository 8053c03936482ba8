import { type ComparedSide, comparisonOf, splitObjectRef } from '@binnacle/common';
import type { Impersonation } from '../../kube/client.ts';
import { readObject } from '../../scope/object-read.ts';
import type { CompareContext } from './module.ts';

/** One side as asked: `<namespace>/<name>` (`_` for cluster-scoped), and a past moment or now. */
export interface CompareSide {
  ref: string;
  at?: number;
}

export interface CompareQuery {
  kind: string;
  group?: string;
  left: CompareSide;
  right: CompareSide;
}

async function readSide(
  ctx: CompareContext,
  caller: Impersonation | undefined,
  query: CompareQuery,
  side: CompareSide,
): Promise<ComparedSide> {
  const object = await readObject(ctx, caller, {
    kind: query.kind,
    group: query.group,
    ...splitObjectRef(side.ref),
    at: side.at,
  });
  return { object, ...(side.at === undefined ? {} : { at: new Date(side.at).toISOString() }) };
}

/**
 * Two objects of a kind in this cluster — or one object now and as it was — field by field, as the caller may
 * read them (docs/compare.md).
 */
export async function compareInCluster(
  ctx: CompareContext,
  caller: Impersonation | undefined,
  query: CompareQuery,
) {
  const [left, right] = await Promise.all([
    readSide(ctx, caller, query, query.left),
    readSide(ctx, caller, query, query.right),
  ]);
  return comparisonOf(left, right);
}
