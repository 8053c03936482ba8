import { randomUUID } from 'node:crypto';
import { AppError, notFound } from '@binnacle/common/server';
import type { HubContext } from '../../context.ts';
import { countOf } from '../../db/count.ts';
import { addMember, roleIn } from '../../db/directory.ts';
import type { InvitationsTable } from '../../db/schema.ts';
import { iso, later } from '../../security/clock.ts';
import type { Principal } from '../../security/principal.ts';
import type { Role } from '../../security/roles.ts';
import { hashSecret, mintToken, wellFormed } from '../../security/tokens.ts';
import { inviteesCanSignIn } from '../../services/identity/sign-in.ts';

type Deps = Pick<HubContext, 'audit' | 'billing' | 'clock' | 'database' | 'hosted' | 'oidc' | 'sessions'>;

/** How long an invitation stays valid when the owner does not say: a week. */
export const defaultInvitationHours = 168;
/** The longest an owner may let an invitation wait: 30 days. */
export const maxInvitationHours = 720;
export const maxPendingInvitations = 500;

const view = (row: InvitationsTable) => ({
  id: row.id,
  email: row.email,
  role: row.role,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
});

/** The invitations of an organization still waiting to be accepted. */
const pendingIn = (ctx: Deps, orgId: string) =>
  ctx.database.db
    .selectFrom('invitations')
    .where('org_id', '=', orgId)
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', iso(ctx.clock.now()));

export async function listInvitations(ctx: Deps, orgId: string) {
  const rows = await pendingIn(ctx, orgId).selectAll().orderBy('created_at', 'desc').execute();
  return rows.map(view);
}

/**
 * Invites an e-mail address with a role. The invitation token (`bni_…`) is returned once, to hand over out of
 * band; a newer invitation for the same address replaces a pending one.
 */
export async function invite(
  ctx: Deps,
  principal: Principal,
  input: { email: string; role: Role; expiresInHours?: number },
  ip: string,
) {
  if (!inviteesCanSignIn(ctx)) {
    throw new AppError(
      'invitations_unavailable',
      'invitations need sign-in through an identity provider: on this hub only the break-glass admin can sign in, so no invitee could accept; configure OIDC first (docs/sso.md)',
    );
  }
  const email = input.email.trim().toLowerCase();
  const { db } = ctx.database;
  const member = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select('users.id')
    .where('memberships.org_id', '=', principal.orgId)
    .where((eb) => eb(eb.fn('lower', ['users.email']), '=', email))
    .executeTakeFirst();
  if (member) throw new AppError('conflict', `${email} is already a member of this organization`);
  await ctx.billing?.ensureRoom(principal.orgId, 'members', email);
  if ((await countOf(pendingIn(ctx, principal.orgId))) >= maxPendingInvitations) {
    throw new AppError(
      'conflict',
      `this organization already has ${maxPendingInvitations} pending invitations`,
    );
  }
  const now = ctx.clock.now();
  const minted = mintToken('bni');
  const row: InvitationsTable = {
    id: randomUUID(),
    org_id: principal.orgId,
    email,
    role: input.role,
    token_hash: minted.hash,
    created_by: principal.user.id,
    created_at: iso(now),
    expires_at: iso(later(now, (input.expiresInHours ?? defaultInvitationHours) * 3_600_000)),
    accepted_at: null,
    accepted_by: null,
  };
  await db.transaction().execute(async (tx) => {
    await tx
      .deleteFrom('invitations')
      .where('org_id', '=', principal.orgId)
      .where('email', '=', email)
      .where('accepted_at', 'is', null)
      .execute();
    await tx.insertInto('invitations').values(row).execute();
  });
  await ctx.audit.act(
    principal,
    ip,
    'invitation.create',
    { type: 'invitation', id: row.id, name: email },
    { email, role: input.role, expiresAt: row.expires_at },
  );
  return { ...view(row), token: minted.token };
}

export async function revokeInvitation(ctx: Deps, principal: Principal, id: string, ip: string) {
  const withdrawn = await ctx.database.db
    .deleteFrom('invitations')
    .where('id', '=', id)
    .where('org_id', '=', principal.orgId)
    .where('accepted_at', 'is', null)
    .returning('email')
    .executeTakeFirst();
  if (!withdrawn) throw notFound(`invitation ${id} not found`);
  await ctx.audit.act(principal, ip, 'invitation.revoke', { type: 'invitation', id, name: withdrawn.email });
}

/**
 * Accepts an invitation for the signed-in user, whose e-mail must be the invited one. The session then acts in
 * the new organization.
 */
export async function acceptInvitation(ctx: Deps, principal: Principal, token: string, ip: string) {
  const gone = notFound('invitation not found, already used or expired');
  if (!wellFormed('bni', token)) throw gone;
  const { db } = ctx.database;
  const now = ctx.clock.now();
  const row = await db
    .selectFrom('invitations')
    .selectAll()
    .where('token_hash', '=', hashSecret(token))
    .executeTakeFirst();
  if (!row || row.accepted_at || now.getTime() >= Date.parse(row.expires_at)) throw gone;
  if (row.email !== principal.user.email.toLowerCase())
    throw new AppError('forbidden', 'this invitation is for another e-mail address');
  if (await roleIn(db, row.org_id, principal.user.id))
    throw new AppError('conflict', 'you are already a member of that organization');
  await db.transaction().execute(async (tx) => {
    const claimed = await tx
      .updateTable('invitations')
      .set({ accepted_at: iso(now), accepted_by: principal.user.id })
      .where('id', '=', row.id)
      .where('accepted_at', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) throw gone;
    await addMember(tx, row.org_id, principal.user.id, row.role, iso(now));
  });
  if (principal.session) await ctx.sessions.switchOrg(principal.session.idHash, row.org_id);
  await ctx.audit.record({
    orgId: row.org_id,
    actor: principal,
    action: 'invitation.accept',
    target: { type: 'invitation', id: row.id, name: row.email },
    detail: { email: row.email, role: row.role },
    ip,
  });
  return { orgId: row.org_id, role: row.role };
}
