import { AppError, notReady } from '@binnacle/common/server';
import type { HubContext } from '../../context.ts';
import {
  addMember,
  breakGlassIssuer,
  createFirstOrg,
  findUser,
  membershipsOf,
  oldestOrg,
  upsertUser,
} from '../../db/directory.ts';
import { iso } from '../../security/clock.ts';
import type { Principal } from '../../security/principal.ts';
import { userTarget } from '../../services/audit/audit-log.ts';
import { recordSignIn } from '../../services/identity/sign-in.ts';

type Deps = Pick<HubContext, 'audit' | 'breakGlass' | 'clock' | 'database' | 'log' | 'metrics' | 'sessions'>;

/**
 * Break-glass sign-in: checks the configured e-mail and password (throttled per client address and account,
 * and account-wide for browsers that are not known devices: ADR 0048), makes sure the admin owns an
 * organization — the very first sign-in bootstraps one — and opens a new session. A success also returns a
 * fresh device cookie for the browser. A replica whose password is no longer the one in force (a rolling
 * restart onto a new one) signs no one in: its session would be ended at once (ADR 0047).
 */
export async function signInBreakGlass(
  ctx: Deps,
  input: { email: string; password: string; ip: string; offeredSession?: string; deviceCookie?: string },
) {
  // A session cookie offered at sign-in is ended, never reused: every sign-in gets a new id.
  if (input.offeredSession) await ctx.sessions.endByCookie(input.offeredSession);
  if (!(await ctx.breakGlass.inForce.ownInForce())) {
    ctx.metrics.signIns.inc({ method: 'break-glass', result: 'not_ready' });
    throw notReady(
      'this hub replica was started with another break-glass password than the one in force (a rolling restart is under way); retry in a moment',
    );
  }
  const email = input.email.trim().toLowerCase();
  const attempt = {
    account: email,
    address: input.ip,
    device: ctx.breakGlass.devices.verify(input.deviceCookie, email),
  };
  const waitMs = ctx.breakGlass.throttle.waitMs(attempt);
  if (waitMs > 0) {
    ctx.metrics.signIns.inc({ method: 'break-glass', result: 'throttled' });
    throw new AppError('rate_limited', 'too many failed sign-in attempts; wait before trying again', {
      headers: { 'Retry-After': String(Math.ceil(waitMs / 1000)) },
    });
  }
  if (!ctx.breakGlass.admin.verify(email, input.password)) {
    ctx.breakGlass.throttle.failed(attempt);
    ctx.metrics.signIns.inc({ method: 'break-glass', result: 'rejected' });
    ctx.log.warn(
      { ip: input.ip, breakGlass: email === ctx.breakGlass.admin.email },
      'break-glass sign-in refused',
    );
    await auditFailure(ctx, email, input.ip);
    if (!ctx.breakGlass.admin.enabled)
      throw new AppError('invalid_credentials', 'break-glass sign-in is not configured on this hub');
    throw new AppError('invalid_credentials', 'wrong e-mail or password');
  }
  ctx.breakGlass.throttle.succeeded(attempt);
  const at = iso(ctx.clock.now());
  const { user, orgId, role } = await ctx.database.db.transaction().execute(async (tx) => {
    const user = await upsertUser(
      tx,
      { issuer: breakGlassIssuer, subject: email, email, name: 'Break-glass admin' },
      at,
    );
    const memberships = await membershipsOf(tx, user.id);
    const owned = memberships.find((m) => m.role === 'owner');
    if (owned) return { user, orgId: owned.id, role: owned.role };
    // The break-glass admin is always an owner: of the first organization, or of a new one on a fresh hub.
    const orgId = (await oldestOrg(tx)) ?? (await createFirstOrg(tx, email, at));
    if (memberships.some((m) => m.id === orgId)) {
      await tx
        .updateTable('memberships')
        .set({ role: 'owner' })
        .where('org_id', '=', orgId)
        .where('user_id', '=', user.id)
        .execute();
    } else {
      await addMember(tx, orgId, user.id, 'owner', at);
    }
    return { user, orgId, role: 'owner' as const };
  });
  const session = await ctx.sessions.open({ userId: user.id, orgId, method: 'break-glass' });
  await recordSignIn(ctx, {
    user,
    orgId,
    method: 'break-glass',
    ip: input.ip,
    detail: { knownDevice: attempt.device !== undefined },
  });
  return { user, orgId, role, ...session, device: ctx.breakGlass.devices.issue(email) };
}

/** Failed attempts on the break-glass admin's e-mail go to the audit log of the organizations it owns. */
async function auditFailure(ctx: Deps, email: string, ip: string) {
  if (email !== ctx.breakGlass.admin.email) return;
  const { db } = ctx.database;
  const user = await findUser(db, breakGlassIssuer, email);
  if (!user) return;
  for (const membership of await membershipsOf(db, user.id)) {
    await ctx.audit.record({
      orgId: membership.id,
      actor: { email },
      action: 'auth.sign_in_failed',
      detail: { method: 'break-glass' },
      ip,
    });
  }
}

export async function signOut(ctx: Deps, principal: Principal, ip: string) {
  if (principal.session) await ctx.sessions.end(principal.session.idHash, 'signout');
  await ctx.audit.act(principal, ip, 'auth.sign_out', userTarget(principal.user));
}
