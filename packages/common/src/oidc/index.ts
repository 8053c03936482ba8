// OpenID Connect relying-party pieces shared by the hub's sign-in and the agent's own (`--auth-mode oidc`).
export { type ForwardableGroups, forwardableGroups, maxGroupBytes, maxGroups } from './groups.ts';
export { type LogoutClaims, verifyLogoutToken } from './logout-token.ts';
export { checkClaim, checkScopes, type OidcClientFlags, oidcClientOptions } from './options.ts';
export {
  idpTimeoutSeconds,
  idpUnavailable,
  isIdpUnavailable,
  type LoginChecks,
  newLoginChecks,
  OidcRelyingParty,
  type RefreshFailure,
  type RelyingPartyLog,
  type RelyingPartySettings,
} from './relying-party.ts';
export { safeReturnTo } from './return-to.ts';
export { type SessionCookieOptions, sessionCookie } from './session-cookie.ts';
export {
  callbackState,
  exchangeCode,
  loginCookieName,
  loginTtlMs,
  matchesHash,
  pendingInThisBrowser,
  sha256,
} from './sign-in.ts';
