import { randomUUID } from 'node:crypto';
import { AppError, notFound } from '@binnacle/common/server';
import type { HubContext } from '../../context.ts';
import { countOf } from '../../db/count.ts';
import type { ClustersTable } from '../../db/schema.ts';
import { iso } from '../../security/clock.ts';
import type { Principal } from '../../security/principal.ts';
import { mintToken } from '../../security/tokens.ts';
import { inOrg } from '../../services/access/org-role.ts';
import type { AuditTarget } from '../../services/audit/audit-log.ts';
import { clusterView } from '../../services/clusters/directory.ts';
import { connectedAmong } from '../../services/replicas/replicas.ts';

type Deps = Pick<
  HubContext,
  'accessCache' | 'audit' | 'billing' | 'clock' | 'database' | 'log' | 'replicas' | 'tunnels'
>;

export const maxClustersPerOrg = 1000;

/** A cluster as the audit log names it: by the name it has at that moment (ADR 0068). */
const audited = (row: { id: string; name: string }): AuditTarget => ({
  type: 'cluster',
  id: row.id,
  name: row.name,
});

/**
 * One cluster of any organization the caller belongs to (a PAT: the one it is pinned to), as the tunnel finds it,
 * with its agent's connection; another organization's is 404, so ids leak nothing.
 */
export async function findCluster(ctx: Deps, principal: Principal, id: string) {
  const row = await ctx.database.db
    .selectFrom('clusters')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row || !(await inOrg(ctx, principal, row.org_id))) throw notFound(`cluster ${id} not found`);
  const connected = await connectedAmong(ctx, [row.id]);
  return { ...clusterView(row), connected: connected.has(row.id) };
}

async function clusterIn(ctx: Deps, orgId: string, id: string): Promise<ClustersTable> {
  const row = await ctx.database.db
    .selectFrom('clusters')
    .selectAll()
    .where('id', '=', id)
    .where('org_id', '=', orgId)
    .executeTakeFirst();
  if (!row) throw notFound(`cluster ${id} not found`);
  return row;
}

async function ensureNameFree(ctx: Deps, orgId: string, name: string, exceptId?: string) {
  let query = ctx.database.db
    .selectFrom('clusters')
    .select('id')
    .where('org_id', '=', orgId)
    .where('name', '=', name);
  if (exceptId) query = query.where('id', '!=', exceptId);
  if (await query.executeTakeFirst())
    throw new AppError('already_exists', `a cluster named "${name}" already exists in this organization`);
}

/** Registers a cluster and mints its agent token (`bnc_…`), returned once; only its hash is kept. */
export async function createCluster(ctx: Deps, principal: Principal, name: string, ip: string) {
  const { db } = ctx.database;
  await ensureNameFree(ctx, principal.orgId, name);
  const count = await countOf(db.selectFrom('clusters').where('org_id', '=', principal.orgId));
  if (count >= maxClustersPerOrg)
    throw new AppError('conflict', `this organization already has ${maxClustersPerOrg} clusters`);
  await ctx.billing?.ensureRoom(principal.orgId, 'clusters');
  const minted = mintToken('bnc');
  const row: ClustersTable = {
    id: randomUUID(),
    org_id: principal.orgId,
    name,
    token_hash: minted.hash,
    token_hint: minted.hint,
    created_at: iso(ctx.clock.now()),
    created_by: principal.user.id,
    token_rotated_at: null,
    last_seen_at: null,
    agent_version: null,
  };
  await db.insertInto('clusters').values(row).execute();
  await ctx.audit.act(principal, ip, 'cluster.create', audited(row));
  return { ...clusterView(row), token: minted.token };
}

export async function renameCluster(ctx: Deps, principal: Principal, id: string, name: string, ip: string) {
  const row = await clusterIn(ctx, principal.orgId, id);
  if (row.name === name) return clusterView(row);
  await ensureNameFree(ctx, principal.orgId, name, id);
  await ctx.database.db.updateTable('clusters').set({ name }).where('id', '=', id).execute();
  await ctx.audit.act(principal, ip, 'cluster.update', audited({ id, name }), { from: row.name, to: name });
  return clusterView({ ...row, name });
}

export async function deleteCluster(ctx: Deps, principal: Principal, id: string, ip: string) {
  const row = await clusterIn(ctx, principal.orgId, id);
  await ctx.database.db.deleteFrom('clusters').where('id', '=', id).execute();
  ctx.tunnels.disconnect(id, 'cluster deleted');
  await ctx.audit.act(principal, ip, 'cluster.delete', audited(row));
}

/** A new agent token; the old one stops matching at once (its hash is replaced). */
export async function rotateClusterToken(ctx: Deps, principal: Principal, id: string, ip: string) {
  const row = await clusterIn(ctx, principal.orgId, id);
  const minted = mintToken('bnc');
  const rotatedAt = iso(ctx.clock.now());
  await ctx.database.db
    .updateTable('clusters')
    .set({ token_hash: minted.hash, token_hint: minted.hint, token_rotated_at: rotatedAt })
    .where('id', '=', id)
    .execute();
  // The live tunnel was authenticated with the old token: it ends now, and the agent must redial with the new one.
  ctx.tunnels.disconnect(id, 'cluster token rotated');
  await ctx.audit.act(principal, ip, 'cluster.rotate_token', audited(row));
  return {
    ...clusterView({ ...row, token_hint: minted.hint, token_rotated_at: rotatedAt }),
    token: minted.token,
  };
}
