import { mapConcurrently } from '@binnacle/common';
import { toAppError } from '@binnacle/common/server';
import type { Principal } from '../../security/principal.ts';
import type { RateLimit } from '../../security/sliding-window.ts';
import { type ClusterListDeps, listClusters } from './directory.ts';

export interface ClusterRef {
  id: string;
  name: string;
}

/** A cluster's part that did not come: not connected, too slow, refused, or failed — named, never hidden. */
export interface ClusterFailure {
  cluster: ClusterRef;
  code: string;
  error: string;
}

export interface FanOut<T> {
  results: { cluster: ClusterRef; value: T }[];
  errors: ClusterFailure[];
}

/**
 * Counts one call that fans out across clusters against the caller's bucket (docs/architecture.md §6.2.7: the fleet routes
 * and the organisation-wide MCP share it); past the limit, 429 `rate_limited` with Retry-After.
 */
export async function countFanOut(ctx: { fleetLimit: RateLimit }, principal: Principal): Promise<void> {
  await ctx.fleetLimit.take(principal.user.id, 'calls that fan out across clusters (fleet views, MCP)');
}

/** Clusters asked at once: enough for a fleet to answer in one round, few enough not to flood the hub. */
const concurrency = 16;

/**
 * Runs `work` for every cluster of the caller's organisation, in parallel, as the caller (each cluster's RBAC
 * trims its own part): partial results with a per-cluster error list, never all-or-nothing. Clusters whose
 * agent is not connected are listed as `cluster_offline` without being asked.
 */
export async function fanOut<T>(
  ctx: ClusterListDeps,
  principal: Principal,
  work: (cluster: ClusterRef) => Promise<T>,
): Promise<FanOut<T>> {
  const clusters = await listClusters(ctx, principal.orgId);
  const outcome: FanOut<T> = { results: [], errors: [] };
  const settled = await mapConcurrently(clusters, concurrency, async ({ id, name, connected }) => {
    const cluster = { id, name };
    if (!connected)
      return {
        cluster,
        failure: { code: 'cluster_offline', error: 'the agent is not connected to the hub' },
      };
    try {
      return { cluster, value: await work(cluster) };
    } catch (error) {
      const known = toAppError(error);
      if (known.code === 'internal_error') ctx.log.error({ err: error, cluster: id }, 'fan-out call failed');
      return { cluster, failure: { code: known.code, error: known.message } };
    }
  });
  for (const part of settled) {
    if ('value' in part) outcome.results.push({ cluster: part.cluster, value: part.value as T });
    else outcome.errors.push({ cluster: part.cluster, ...part.failure });
  }
  return outcome;
}
