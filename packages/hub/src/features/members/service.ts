import { AppError, notFound } from '@binnacle/common/server';
import type { HubContext } from '../../context.ts';
import { countOf } from '../../db/count.ts';
import { breakGlassIssuer, type Db, ownerCount } from '../../db/directory.ts';
import type { Principal } from '../../security/principal.ts';
import type { Role } from '../../security/roles.ts';
import { userTarget } from '../../services/audit/audit-log.ts';

type Deps = Pick<HubContext, 'audit' | 'database' | 'sessions'>;

const conflict = (message: string) => new AppError('conflict', message);

export async function listMembers(ctx: Deps, orgId: string, page: { limit: number; offset: number }) {
  const { db } = ctx.database;
  const rows = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.id', 'users.email', 'users.name', 'users.idp_issuer', 'users.last_sign_in_at'])
    .select(['memberships.role', 'memberships.created_at'])
    .where('memberships.org_id', '=', orgId)
    .orderBy('users.email')
    .orderBy('users.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const total = await countOf(db.selectFrom('memberships').where('org_id', '=', orgId));
  return {
    items: rows.map((row) => ({
      userId: row.id,
      email: row.email,
      name: row.name,
      role: row.role,
      breakGlass: row.idp_issuer === breakGlassIssuer,
      joinedAt: row.created_at,
      lastSignInAt: row.last_sign_in_at,
    })),
    total: total,
  };
}

/** An organization always keeps an owner: the last one can be neither demoted nor removed. */
async function keepAnOwner(db: Db, orgId: string, role: Role) {
  if (role === 'owner' && (await ownerCount(db, orgId)) <= 1)
    throw conflict('this is the last owner of the organization; promote someone else first');
}

async function memberOf(db: Db, orgId: string, userId: string) {
  const row = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.email', 'users.idp_issuer', 'memberships.role'])
    .where('memberships.org_id', '=', orgId)
    .where('memberships.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw notFound(`member ${userId} not found in this organization`);
  if (row.idp_issuer === breakGlassIssuer)
    throw conflict('the break-glass admin is always an owner; change it in the hub configuration');
  return row;
}

/** Promotes or demotes a member; the last owner cannot be demoted. The new role applies to their next request. */
export async function changeRole(ctx: Deps, principal: Principal, userId: string, role: Role, ip: string) {
  const { db } = ctx.database;
  const member = await memberOf(db, principal.orgId, userId);
  if (member.role === role) return;
  await db.transaction().execute(async (tx) => {
    await keepAnOwner(tx, principal.orgId, member.role);
    await tx
      .updateTable('memberships')
      .set({ role })
      .where('org_id', '=', principal.orgId)
      .where('user_id', '=', userId)
      .execute();
  });
  await ctx.audit.act(principal, ip, 'member.role_change', userTarget({ id: userId, email: member.email }), {
    email: member.email,
    from: member.role,
    to: role,
  });
}

/**
 * Removes a member: their sessions in this organization end at once and their PATs pinned to it are deleted
 * (they would be refused anyway, having no membership behind them).
 */
export async function removeMember(ctx: Deps, principal: Principal, userId: string, ip: string) {
  const { db } = ctx.database;
  const member = await memberOf(db, principal.orgId, userId);
  await db.transaction().execute(async (tx) => {
    await keepAnOwner(tx, principal.orgId, member.role);
    await tx
      .deleteFrom('memberships')
      .where('org_id', '=', principal.orgId)
      .where('user_id', '=', userId)
      .execute();
    await tx.deleteFrom('pats').where('org_id', '=', principal.orgId).where('user_id', '=', userId).execute();
  });
  const ended = await ctx.sessions.endForMember(userId, principal.orgId);
  await ctx.audit.act(principal, ip, 'member.remove', userTarget({ id: userId, email: member.email }), {
    email: member.email,
    role: member.role,
    sessionsEnded: ended,
  });
}
