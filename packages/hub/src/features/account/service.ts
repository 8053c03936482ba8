import { notFound } from '@binnacle/common/server';
import type { HubContext } from '../../context.ts';
import { membershipsOf } from '../../db/directory.ts';
import { clusterIdentity } from '../../security/cluster-identity.ts';
import type { Principal } from '../../security/principal.ts';

type Deps = Pick<HubContext, 'database' | 'sessions'>;

/** Who the caller is, where they act, with which credential, and what clusters see of them. */
export async function describeAccount(
  ctx: Deps,
  principal: Principal,
  memberships?: Awaited<ReturnType<typeof membershipsOf>>,
) {
  const all = memberships ?? (await membershipsOf(ctx.database.db, principal.user.id));
  const orgs = all
    .filter((m) => principal.via !== 'pat' || m.id === principal.orgId)
    .map((m) => ({ id: m.id, name: m.name, role: m.role }));
  const current = orgs.find((o) => o.id === principal.orgId);
  if (!current) throw notFound('the current organization no longer exists');
  const credential = principal.session
    ? {
        via: principal.via,
        method: principal.session.method,
        expiresAt: principal.session.expiresAt.toISOString(),
      }
    : { via: principal.via, ...(principal.patId ? { patId: principal.patId } : {}) };
  return {
    user: principal.user,
    currentOrg: current,
    orgs,
    credential,
    idpGroups: principal.via === 'pat' ? [] : principal.groups,
    clusterIdentity: clusterIdentity(principal),
  };
}

/** Moves the session to another organization of the caller's (404 for one that is not theirs). */
export async function switchOrg(ctx: Deps, principal: Principal, orgId: string) {
  const memberships = await membershipsOf(ctx.database.db, principal.user.id);
  const target = memberships.find((m) => m.id === orgId);
  if (!target || !principal.session) throw notFound(`organization ${orgId} not found`);
  await ctx.sessions.switchOrg(principal.session.idHash, orgId);
  return describeAccount(ctx, { ...principal, orgId, role: target.role }, memberships);
}
