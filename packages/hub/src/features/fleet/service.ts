import type { HubContext } from '../../context.ts';
import type { Principal } from '../../security/principal.ts';
import { getAgentJson } from '../../services/clusters/call.ts';
import { type ClusterRef, countFanOut, fanOut } from '../../services/clusters/fan-out.ts';
import type { ClusterStatus } from './schemas.ts';

type Deps = Pick<
  HubContext,
  'accessCache' | 'clock' | 'database' | 'fleetLimit' | 'log' | 'replicas' | 'tunnels'
>;

/**
 * A cluster's part of a fleet view. Ten seconds: an agent answers these from its cache in milliseconds, so a
 * slower one is stuck or overloaded, and one such cluster must not hold the whole answer much longer.
 */
export const fleetTimeoutMs = 10_000;
/** An audit of 10 000 pods is a few MB of JSON; anything far beyond is refused rather than buffered. */
const maxAnswerBytes = 16 * 1024 * 1024;

/** What one cluster contributes: its rows in its own order, its counts, the kinds it still loads. */
export interface ClusterPart<Row> {
  rows: Row[];
  summary?: Record<string, number>;
  loading?: string[];
}

/** A row with where it came from, for ordering the merged list. */
export interface Placed<Row> {
  row: Row;
  cluster: ClusterRef;
  /** Its position in its cluster's answer (the agent's own order). */
  index: number;
}

/** The parameters of the fleet routes (each route's schema says which it takes), `limit` defaulted. */
export interface FleetQuery {
  namespace?: string;
  category?: string;
  severity?: string;
  q?: string;
  kind?: string;
  /** A past moment as the caller wrote it (fleet search): each agent reads it. */
  at?: string;
  limit: number;
}

export interface FleetView<Row> {
  /** One cluster's part, asked as the caller. */
  ask(cluster: ClusterRef): Promise<ClusterPart<Row>>;
  /** The merged order; ties keep the clusters' name order and each cluster's own order. */
  order(a: Placed<Row>, b: Placed<Row>): number;
}

/** GET an agent route through the cluster's tunnel as the caller, with the fleet's time-out and size bound. */
export function askAgent<T>(
  ctx: Deps,
  principal: Principal,
  cluster: ClusterRef,
  path: string,
  query: Record<string, string | number | undefined> = {},
): Promise<T> {
  return getAgentJson<T>(
    ctx,
    principal,
    cluster.id,
    { path, query },
    { timeoutMs: fleetTimeoutMs, maxBytes: maxAnswerBytes },
  );
}

const statusOf = (code: string): ClusterStatus => {
  if (code === 'agent_timeout') return 'timeout';
  if (code === 'cluster_offline' || code === 'cluster_disconnected') return 'offline';
  return code === 'forbidden' ? 'forbidden' : 'error';
};

/**
 * Runs a fleet view: counts against the caller's fan-out bucket first (429 past it, nothing asked), then asks
 * every cluster of the organisation in parallel as the caller, and merges what came — each row naming its
 * cluster — beside every cluster's status and the list of those that did not answer. Never all-or-nothing.
 */
export async function fleetView<Row extends object>(
  ctx: Deps,
  principal: Principal,
  view: FleetView<Row>,
  limit: number,
) {
  await countFanOut(ctx, principal);
  const outcome = await fanOut(ctx, principal, view.ask);
  const clusters = [
    ...outcome.results.map(({ cluster, value }) => ({
      ...cluster,
      status: 'ok' as ClusterStatus,
      rows: value.rows.length,
      ...(value.summary ? { summary: value.summary } : {}),
      ...(value.loading?.length ? { loading: value.loading } : {}),
    })),
    ...outcome.errors.map(({ cluster, code }) => ({ ...cluster, status: statusOf(code), rows: 0 })),
  ].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  const placed = outcome.results
    .flatMap(({ cluster, value }) => value.rows.map((row, index) => ({ row, cluster, index })))
    .sort(view.order);
  return {
    items: placed
      .slice(0, limit)
      .map(({ row, cluster }) => ({ clusterId: cluster.id, clusterName: cluster.name, ...row })),
    total: placed.length,
    clusters,
    errors: outcome.errors,
  };
}
