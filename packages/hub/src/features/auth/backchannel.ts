import { verifyLogoutToken } from '@binnacle/common/oidc';
import { badRequest } from '@binnacle/common/server';
import type { HubContext } from '../../context.ts';
import { iso, later } from '../../security/clock.ts';
import { oidcClientOf } from './oidc-service.ts';

type Deps = Pick<
  HubContext,
  'audit' | 'clock' | 'config' | 'database' | 'log' | 'metrics' | 'oidc' | 'sessions' | 'warnOnce'
>;

/**
 * OIDC Back-Channel Logout 1.0 (docs/architecture.md §6.2.9): a logout token signed by the IdP (checked as
 * `verifyLogoutToken` does) ends the sessions of its IdP session (`sid`), or all sessions of its user (`sub`).
 * Replayed tokens (same `jti`) are refused.
 */
export async function backchannelLogout(ctx: Deps, logoutToken: string): Promise<number> {
  const claims = await verifyLogoutToken(oidcClientOf(ctx), logoutToken);
  if (claims.jti) {
    const now = ctx.clock.now();
    const { db } = ctx.database;
    await db.deleteFrom('logout_tokens').where('expires_at', '<=', iso(now)).execute();
    const seen = await db
      .selectFrom('logout_tokens')
      .select('jti')
      .where('jti', '=', claims.jti)
      .executeTakeFirst();
    if (seen) throw badRequest('logout_token: already used');
    const expiresAt = claims.exp ? new Date(claims.exp * 1000) : later(now, 10 * 60_000);
    await db
      .insertInto('logout_tokens')
      .values({ jti: claims.jti, expires_at: iso(expiresAt) })
      .execute();
  }
  return ctx.sessions.endForIdpUser(claims.iss, claims.sub, claims.sid);
}
