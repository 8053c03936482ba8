import { randomBytes } from 'node:crypto';
import {
  callbackState,
  exchangeCode,
  forwardableGroups,
  loginCookieName,
  loginTtlMs,
  newLoginChecks,
  OidcRelyingParty,
  pendingInThisBrowser,
  type RelyingPartyLog,
  safeReturnTo,
  sessionCookie,
  sha256,
  verifyLogoutToken,
} from '@binnacle/common/oidc';
import { AppError, badRequest } from '@binnacle/common/server';
import type { OidcSettings } from '../../config/auth-settings.ts';
import { type AuthSession, AuthSessionStore } from './session-store.ts';

/** The agent as an OpenID relying party: the shared client, its sessions and its cookie. */
export interface AgentOidc {
  settings: OidcSettings;
  rp: OidcRelyingParty;
  store: AuthSessionStore;
  cookie: ReturnType<typeof sessionCookie>;
  now: () => number;
  log: RelyingPartyLog;
}

export function agentOidc(settings: OidcSettings, log: RelyingPartyLog, now = Date.now): AgentOidc {
  const rp = new OidcRelyingParty(
    {
      issuer: settings.issuer,
      clientId: settings.clientId,
      clientSecret: settings.clientSecret,
      scopes: settings.scopes,
      redirectUri: settings.redirectUrl,
      postLogoutRedirectUri: `${settings.publicUrl}/`,
    },
    log,
  );
  // Its own name: a hub on the same host (cookies ignore ports) keeps binnacle_session.
  const cookie = sessionCookie(settings.publicUrl, 'binnacle_agent_session');
  return { settings, rp, store: new AuthSessionStore(now), cookie, now, log };
}

/** Starts the authorization-code flow (PKCE S256, state, nonce); the pending sign-in waits 10 minutes. */
export async function startLogin(oidc: AgentOidc, returnTo: string | undefined) {
  const checks = newLoginChecks();
  const url = await oidc.rp.authorizationUrl(checks);
  const binding = randomBytes(32).toString('base64url');
  oidc.store.addPending(checks.state, {
    nonce: checks.nonce,
    codeVerifier: checks.codeVerifier,
    returnTo: safeReturnTo(returnTo, oidc.settings.publicUrl),
    bindingHash: sha256(binding),
    expiresAt: oidc.now() + loginTtlMs,
  });
  return {
    url: url.toString(),
    cookie: {
      name: loginCookieName(oidc.settings.publicUrl, checks.state),
      value: binding,
      maxAgeSeconds: loginTtlMs / 1000,
    },
  };
}

/**
 * The Kubernetes user an ID token names (the configured claim); without a usable one the sign-in fails. The API
 * server trims spaces and tabs off impersonation headers, so a name with whitespace around it would not be
 * impersonated as itself: " system:admin" would slip past the system: refusal, and a blank name would be no
 * impersonation at all (the agent's own identity).
 */
export function usernameOf(claims: Record<string, unknown>, claim: string): string {
  const value = claims[claim];
  if (typeof value !== 'string' || value === '')
    throw new AppError(
      'sign_in_failed',
      `the ID token has no "${claim}" claim to name the Kubernetes user (--oidc-username-claim)`,
    );
  if (value.trim() !== value)
    throw new AppError(
      'sign_in_failed',
      `the ID token's "${claim}" claim starts or ends with whitespace, so it cannot name a Kubernetes user`,
    );
  return value;
}

/**
 * Completes a sign-in at the callback: the pending sign-in is taken once (replays fail) and must belong to this
 * browser; the code exchange checks PKCE, state, nonce and the ID token. Opens a session for the user and the
 * groups of the ID token.
 */
export async function finishLogin(
  oidc: AgentOidc,
  input: {
    query: Record<string, string | undefined>;
    rawQuery: string;
    cookies: Record<string, string | undefined>;
  },
) {
  const state = callbackState(input.query);
  const loginCookie = loginCookieName(oidc.settings.publicUrl, state);
  const pending = pendingInThisBrowser(
    oidc.store.takePending(state),
    (login) => login,
    input.cookies[loginCookie],
    oidc.now(),
  );
  const tokens = await exchangeCode(
    oidc.rp,
    input.rawQuery,
    { state, nonce: pending.nonce, codeVerifier: pending.codeVerifier },
    oidc.log,
  );
  const claims = tokens.claims();
  if (!claims || !tokens.id_token)
    throw new AppError('sign_in_failed', 'the identity provider returned no ID token');
  const expiresAt = oidc.now() + oidc.settings.sessionLifetimeMs;
  const session: AuthSession = {
    user: usernameOf(claims, oidc.settings.usernameClaim),
    groups: forwardableGroups(claims, oidc.settings.groupsClaim).groups,
    idToken: tokens.id_token,
    issuer: claims.iss,
    subject: claims.sub,
    sid: typeof claims.sid === 'string' ? claims.sid : undefined,
    expiresAt,
  };
  return {
    cookieValue: oidc.store.open(session),
    expiresAt: new Date(expiresAt),
    returnTo: pending.returnTo,
    loginCookie,
  };
}

/** Ends the session of this cookie; the IdP's logout URL when it advertises end_session_endpoint. */
export async function logout(oidc: AgentOidc, cookieValue: string | undefined): Promise<string | undefined> {
  const session = oidc.store.end(cookieValue);
  return oidc.rp.endSessionUrl(session?.idToken ?? null);
}

/** OIDC Back-Channel Logout: a valid logout token (checked as the hub checks it) ends the matching sessions once. */
export async function backchannelLogout(oidc: AgentOidc, logoutToken: string): Promise<number> {
  const claims = await verifyLogoutToken(oidc.rp, logoutToken);
  if (claims.jti) {
    const until = claims.exp ? claims.exp * 1000 : oidc.now() + loginTtlMs;
    if (!oidc.store.firstUseOfLogoutToken(claims.jti, until)) throw badRequest('logout_token: already used');
  }
  return oidc.store.endForIdp(claims.iss, claims.sub, claims.sid);
}
