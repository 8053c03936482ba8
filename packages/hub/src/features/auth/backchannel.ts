import { badRequest } from '@binnacle/common/server';
import type { HubContext } from '../../context.ts';
import { iso, later } from '../../security/clock.ts';
import { oidcClientOf } from './oidc-service.ts';

const logoutEvent = 'http://schemas.openid.net/event/backchannel-logout';

/**
 * OIDC Back-Channel Logout 1.0 (DESIGN §6.2.9): a logout token signed by the IdP ends the sessions of its
 * IdP session (`sid`), or all sessions of its user (`sub`). Replayed tokens (same `jti`) are refused.
 */
export async function backchannelLogout(ctx: HubContext, logoutToken: string): Promise<number> {
  const client = oidcClientOf(ctx);
  let claims: Awaited<ReturnType<typeof client.verifyIdpJwt>>;
  try {
    claims = await client.verifyIdpJwt(logoutToken);
  } catch (error) {
    throw badRequest(
      `logout_token: not a valid token from the identity provider (${(error as Error).message})`,
    );
  }
  const events = claims.events as Record<string, unknown> | undefined;
  if (!events || typeof events[logoutEvent] !== 'object')
    throw badRequest('logout_token: the backchannel-logout event is missing');
  if ('nonce' in claims) throw badRequest('logout_token: must not carry a nonce');
  const sid = typeof claims.sid === 'string' ? claims.sid : undefined;
  if (!claims.sub && !sid) throw badRequest('logout_token: needs sub or sid');
  if (!claims.iat) throw badRequest('logout_token: needs iat');
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
  return ctx.sessions.endForIdpUser(claims.iss as string, claims.sub, sid);
}
