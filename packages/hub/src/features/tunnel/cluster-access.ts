import { AppError, notFound } from '@binnacle/common/server';
import { identityHeader, signIdentity } from '@binnacle/tunnel';
import type { HubContext } from '../../context.ts';
import { clusterIdentity } from '../../http/cluster-identity.ts';
import { inOrg, type Principal } from '../../http/principal.ts';
import type { LiveTunnel } from './registry.ts';

/** Forwarded identities live a minute: long enough for one request, useless if captured later. */
const identityTtlSeconds = 60;

/**
 * The tunnel to a cluster the caller may reach: the cluster must belong to an organization the caller is a
 * member of (a PAT: the one it is pinned to), else 404 — ids of other organizations leak nothing. The role
 * is the caller's role in the cluster's organization; the principal returned acts in that organization.
 */
export async function tunnelFor(
  ctx: HubContext,
  principal: Principal,
  clusterId: string,
): Promise<{ tunnel: LiveTunnel; identity: string; principal: Principal }> {
  const cluster = await ctx.database.db
    .selectFrom('clusters')
    .select(['id', 'org_id', 'name'])
    .where('id', '=', clusterId)
    .executeTakeFirst();
  const scoped = cluster && (await inOrg(ctx.database.db, principal, cluster.org_id));
  if (!cluster || !scoped) throw notFound(`cluster ${clusterId} not found`);
  const tunnel = ctx.tunnels.get(cluster.id);
  if (!tunnel) {
    throw new AppError('cluster_offline', `cluster ${cluster.name} is not connected to the hub right now`, {
      headers: { 'Retry-After': '5' },
    });
  }
  const subjects = clusterIdentity(scoped);
  const identity = signIdentity(tunnel.tokenHash, {
    ...subjects,
    aud: cluster.id,
    exp: Math.floor(ctx.clock.now().getTime() / 1000) + identityTtlSeconds,
  });
  return { tunnel, identity, principal: scoped };
}

/**
 * Request headers that may travel to the agent. Everything else stays at the hub: cookies, Authorization,
 * Impersonate-*, X-Forwarded-*, proxy-auth headers and any identity header the client made up.
 */
const forwarded = [
  'accept',
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
