import type { HubDatabase } from '../../db/database.ts';
import type { ClustersTable } from '../../db/schema.ts';
import { hashSecret, wellFormed } from '../../security/tokens.ts';
import { connectedAmong, type TunnelDirectory } from '../replicas/replicas.ts';

/** What listing an organisation's clusters reads: their rows and where their agents' tunnels are. */
export interface ClusterListDeps extends TunnelDirectory {
  database: HubDatabase;
}

/** A cluster as the API shows it: never its token's hash. */
export const clusterView = (row: ClustersTable) => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
  tokenHint: row.token_hint,
  tokenRotatedAt: row.token_rotated_at,
  lastSeenAt: row.last_seen_at,
  agentVersion: row.agent_version,
});

/** Whether each cluster's agent holds a tunnel to this hub (any of its replicas) right now. */
export async function listClusters(ctx: ClusterListDeps, orgId: string) {
  const rows = await ctx.database.db
    .selectFrom('clusters')
    .selectAll()
    .where('org_id', '=', orgId)
    .orderBy('name')
    .execute();
  const connected = await connectedAmong(
    ctx,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...clusterView(row), connected: connected.has(row.id) }));
}

/** The cluster an agent token belongs to (the tunnel's credential check), or undefined. */
export async function clusterForToken(ctx: { database: HubDatabase }, token: string) {
  if (!wellFormed('bnc', token)) return undefined;
  const row = await ctx.database.db
    .selectFrom('clusters')
    .selectAll()
    .where('token_hash', '=', hashSecret(token))
    .executeTakeFirst();
  return row ? { ...clusterView(row), orgId: row.org_id } : undefined;
}
