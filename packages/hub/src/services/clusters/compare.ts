import {
  type ComparedSide,
  comparisonOf,
  type KubeObject,
  parseTimeOrDuration,
  splitObjectRef,
} from '@binnacle/common';
import { AppError, badRequest } from '@binnacle/common/server';
import type { Principal } from '../../security/principal.ts';
import { getAgentJson } from './call.ts';
import type { ReachDeps } from './reach.ts';

/** One side as asked through the hub: which cluster, `<namespace>/<name>`, and a past moment as written. */
export interface HubCompareSide {
  clusterId: string;
  ref: string;
  at?: string;
}

export interface HubCompareQuery {
  kind: string;
  group?: string;
  left: HubCompareSide;
  right: HubCompareSide;
}

/** An agent answers one object from its cache in milliseconds; a slower one is stuck. */
const readTimeoutMs = 10_000;
/** Far above any object the API server stores (etcd's limit is 1.5 MB). */
const maxObjectBytes = 8 * 1024 * 1024;

/** A moment as the caller wrote it (RFC 3339 or a duration back from now), as an RFC 3339 time. */
function momentOf(value: string, parameter: string, now: number): string {
  try {
    return new Date(parseTimeOrDuration(value, `query parameter "${parameter}"`, now)).toISOString();
  } catch (error) {
    throw badRequest((error as Error).message);
  }
}

async function readSide(
  ctx: ReachDeps,
  principal: Principal,
  query: HubCompareQuery,
  label: 'left' | 'right',
): Promise<ComparedSide> {
  const side = query[label];
  const { namespace, name } = splitObjectRef(side.ref);
  // One absolute moment, so both agents read the same instant whatever their clocks say.
  const at = side.at === undefined ? undefined : momentOf(side.at, `${label}At`, ctx.clock.now().getTime());
  const path = [query.kind, namespace, name].map(encodeURIComponent).join('/');
  try {
    const { resource } = await getAgentJson<{ resource: KubeObject }>(
      ctx,
      principal,
      side.clusterId,
      { path: `/api/resources/${path}`, query: { group: query.group, at } },
      { timeoutMs: readTimeoutMs, maxBytes: maxObjectBytes },
    );
    return { object: resource, ...(at ? { at } : {}) };
  } catch (error) {
    // Which side failed is the first thing a person needs; the code (and so the status) stays the agent's.
    if (error instanceof AppError) throw error.withContext(label);
    throw error;
  }
}

/**
 * Two objects of a kind in two clusters of the caller's organisation (or the same one), each read through its
 * cluster's tunnel as the caller — so each cluster's RBAC decides — and compared as the agent compares
 * (docs/compare.md).
 */
export async function compareAcrossClusters(ctx: ReachDeps, principal: Principal, query: HubCompareQuery) {
  const [left, right] = await Promise.all([
    readSide(ctx, principal, query, 'left'),
    readSide(ctx, principal, query, 'right'),
  ]);
  const names = new Map(
    (
      await ctx.database.db
        .selectFrom('clusters')
        .select(['id', 'name'])
        .where('id', 'in', [query.left.clusterId, query.right.clusterId])
        .execute()
    ).map((row) => [row.id, row.name]),
  );
  const where = (id: string) => ({ id, name: names.get(id) ?? id });
  return comparisonOf(
    { ...left, cluster: where(query.left.clusterId) },
    { ...right, cluster: where(query.right.clusterId) },
  );
}
