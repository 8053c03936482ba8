import { badRequest } from '../server/errors.ts';
import type { OidcRelyingParty } from './relying-party.ts';

const logoutEvent = 'http://schemas.openid.net/event/backchannel-logout';

/** What a verified logout token says: whose IdP session (`sid`) or user (`sub`) ended. */
export interface LogoutClaims {
  iss: string;
  sub?: string;
  sid?: string;
  /** Its id, for refusing replays; with `exp` the time until which it must be remembered. */
  jti?: string;
  exp?: number;
}

/**
 * OIDC Back-Channel Logout 1.0: a logout token must be signed by the IdP for this client, carry the logout
 * event, no nonce, `iat`, and `sub` or `sid`. Any failure is a 400 naming it. Replays (same `jti`) are the
 * caller's to refuse, with the store it has.
 */
export async function verifyLogoutToken(rp: OidcRelyingParty, logoutToken: string): Promise<LogoutClaims> {
  let claims: Awaited<ReturnType<typeof rp.verifyIdpJwt>>;
  try {
    claims = await rp.verifyIdpJwt(logoutToken);
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
  return { iss: claims.iss as string, sub: claims.sub, sid, jti: claims.jti, exp: claims.exp };
}
