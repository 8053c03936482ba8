import { AppError } from '@binnacle/common/server';
import {
  addMember,
  createFirstOrg,
  type Db,
  membershipsOf,
  oldestOrg,
  type UserRow,
} from '../../db/directory.ts';
import { type Clock, iso } from '../../security/clock.ts';
import type { Role } from '../../security/roles.ts';
import { type AuditLog, userTarget } from '../audit/audit-log.ts';
import type { HubMetrics } from '../metrics/registry.ts';
import type { HostedIdp } from './hosted-idp.ts';
import type { OidcClient } from './oidc-client.ts';

/**
 * Whether an invitee can sign in to accept: through OIDC or the hosted identity provider. The break-glass
 * admin is one configured person, so a hub with nothing else cannot let anyone in by invitation (ADR 0069).
 */
export const inviteesCanSignIn = (ctx: { oidc?: OidcClient; hosted?: HostedIdp }): boolean =>
  ctx.oidc !== undefined || ctx.hosted !== undefined;

/**
 * Where a person who just signed in acts: an organization they already belong to; else one a pending
 * invitation for their e-mail names (with its role); else, at their first sign-in, a new organization they
 * own on a fresh hub (the first user bootstraps it) or the first organization with the default role. Someone
 * known but removed from every organization is refused until invited again: removal must stick.
 */
export async function placeMember(
  tx: Db,
  ctx: { clock: Clock },
  user: UserRow & { created: boolean },
  defaultRole: Role,
): Promise<{ orgId: string; role: Role }> {
  const memberships = await membershipsOf(tx, user.id);
  const first = memberships[0];
  if (first) return { orgId: first.id, role: first.role };
  const at = iso(ctx.clock.now());
  const invitation = await tx
    .selectFrom('invitations')
    .selectAll()
    .where('email', '=', user.email.toLowerCase())
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', at)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (invitation) {
    await tx
      .updateTable('invitations')
      .set({ accepted_at: at, accepted_by: user.id })
      .where('id', '=', invitation.id)
      .execute();
    await addMember(tx, invitation.org_id, user.id, invitation.role, at);
    return { orgId: invitation.org_id, role: invitation.role };
  }
  if (!user.created) {
    throw new AppError(
      'forbidden',
      'you are not a member of any organization on this hub; ask an owner to invite you',
    );
  }
  const oldest = await oldestOrg(tx);
  if (!oldest) {
    const orgId = await createFirstOrg(tx, user.email, at);
    await addMember(tx, orgId, user.id, 'owner', at);
    return { orgId, role: 'owner' };
  }
  await addMember(tx, oldest, user.id, defaultRole, at);
  return { orgId: oldest, role: defaultRole };
}

/** Counts and audits a successful sign-in in the organization the person landed in. */
export async function recordSignIn(
  ctx: { metrics: HubMetrics; audit: AuditLog },
  signIn: {
    user: UserRow;
    orgId: string;
    method: 'break-glass' | 'oidc';
    ip: string;
    detail?: Record<string, number | boolean>;
  },
) {
  ctx.metrics.signIns.inc({ method: signIn.method, result: 'ok' });
  await ctx.audit.record({
    orgId: signIn.orgId,
    actor: { user: signIn.user, via: 'session' },
    action: 'auth.sign_in',
    target: userTarget(signIn.user),
    detail: { method: signIn.method, ...signIn.detail },
    ip: signIn.ip,
  });
}
