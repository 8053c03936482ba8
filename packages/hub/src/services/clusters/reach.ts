import { AppError, notFound } from '@binnacle/common/server';
import { IdentitySigner, identityHeader } from '@binnacle/tunnel';
import type { HubDatabase } from '../../db/database.ts';
import type { Clock } from '../../security/clock.ts';
import { clusterIdentity } from '../../security/cluster-identity.ts';
import type { Principal } from '../../security/principal.ts';
import type { AccessCache } from '../access/access-cache.ts';
import { inOrg } from '../access/org-role.ts';
import type { TunnelEnd } from '../replicas/peer-tunnels.ts';
import { type TunnelDirectory, tunnelElsewhere } from '../replicas/replicas.ts';

/**
 * What reaching a cluster's agent reads: the cluster's row and the caller's role (cached with the request's
 * access), the tunnels, and the clock the forwarded identity is dated by.
 */
export interface ReachDeps extends TunnelDirectory {
  accessCache: AccessCache;
  clock: Clock;
  database: HubDatabase;
}

/** A cluster's tunnel wherever it is: held by this replica, or by another one that relays to it. */
export interface ReachedTunnel {
  client: TunnelEnd;
  /** The key the identity is signed with: the hash of the token the agent holds. */
  tokenHash: string;
}

/**
 * This replica's tunnel to the cluster, else the one another replica holds (the directory in Redis), signed
 * with the cluster's token hash as stored (a rotation disconnects the agent everywhere); else 503.
 */
async function reachTunnel(
  ctx: ReachDeps,
  cluster: { id: string; name: string; token_hash: string },
): Promise<ReachedTunnel> {
  const here = ctx.tunnels.get(cluster.id);
  if (here) return here;
  const relayed = await tunnelElsewhere(ctx, cluster.id);
  if (relayed) return { client: relayed, tokenHash: cluster.token_hash };
  throw new AppError('cluster_offline', `cluster ${cluster.name} is not connected to the hub right now`, {
    headers: { 'Retry-After': '5' },
  });
}

/**
 * Forwarded identities live a minute: long enough for one request, useless if captured later. One signed
 * for the same caller and cluster is reused for 10 s, so every header still has 50 s left when sent.
 */
const signer = new IdentitySigner(60, 10);

/**
 * The tunnel to a cluster the caller may reach: the cluster must belong to an organization the caller is a
 * member of (a PAT: the one it is pinned to), else 404 — ids of other organizations leak nothing. The role
 * is the caller's role in the cluster's organization; the principal returned acts in that organization.
 */
export async function tunnelFor(
  ctx: ReachDeps,
  principal: Principal,
  clusterId: string,
): Promise<{ tunnel: ReachedTunnel; identity: string; principal: Principal }> {
  const cluster = await ctx.accessCache.remember(`cluster ${clusterId}`, () =>
    ctx.database.db
      .selectFrom('clusters')
      .select(['id', 'org_id', 'name', 'token_hash'])
      .where('id', '=', clusterId)
      .executeTakeFirst(),
  );
  const scoped = cluster && (await inOrg(ctx, principal, cluster.org_id));
  if (!cluster || !scoped) throw notFound(`cluster ${clusterId} not found`);
  const tunnel = await reachTunnel(ctx, cluster);
  const identity = signer.sign(
    tunnel.tokenHash,
    clusterIdentity(scoped),
    cluster.id,
    ctx.clock.now().getTime(),
  );
  return { tunnel, identity, principal: scoped };
}

/**
 * Request headers that may travel to the agent. Everything else stays at the hub: cookies, Authorization,
 * Impersonate-*, X-Forwarded-*, proxy-auth headers and any identity header the client made up.
 */
const forwarded = [
  'accept',
  'accept-encoding',
  'accept-language',
  'content-type',
  'content-length',
  'last-event-id',
  'mcp-protocol-version',
  'if-none-match',
  'user-agent',
];

export function agentRequestHeaders(
  headers: Record<string, string | string[] | undefined>,
  identity: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of forwarded) {
    const value = headers[name];
    if (typeof value === 'string') out[name] = value;
  }
  out[identityHeader] = identity;
  return out;
}
