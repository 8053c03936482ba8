import { randomBytes } from 'node:crypto';
import {
  callbackState,
  exchangeCode as exchangeAtIdp,
  forwardableGroups,
  loginCookieName,
  loginTtlMs,
  newLoginChecks,
  pendingInThisBrowser,
  safeReturnTo,
} from '@binnacle/common/oidc';
import { AppError } from '@binnacle/common/server';
import type * as oidc from 'openid-client';
import type { HubContext } from '../../context.ts';
import { upsertUser } from '../../db/directory.ts';
import { iso, later } from '../../security/clock.ts';
import { hashSecret } from '../../security/tokens.ts';
import type { OidcClient } from '../../services/identity/oidc-client.ts';
import { placeMember, recordSignIn } from '../../services/identity/sign-in.ts';

type Deps = Pick<
  HubContext,
  'audit' | 'clock' | 'config' | 'database' | 'log' | 'metrics' | 'oidc' | 'sessions' | 'warnOnce'
>;

export function oidcClientOf(ctx: Deps): OidcClient {
  if (!ctx.oidc)
    throw new AppError('not_found', 'OIDC sign-in is not configured on this hub (see docs/sso.md)');
  return ctx.oidc;
}

/** Starts the authorization-code flow (PKCE S256, state, nonce); the pending sign-in lives server-side for 10 minutes. */
export async function startOidcLogin(ctx: Deps, returnTo: string | undefined) {
  const client = oidcClientOf(ctx);
  const checks = newLoginChecks();
  const url = await client.authorizationUrl(checks);
  const binding = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  await ctx.database.db
    .insertInto('oidc_logins')
    .values({
      state_hash: hashSecret(checks.state),
      binding_hash: hashSecret(binding),
      nonce: checks.nonce,
      code_verifier: checks.codeVerifier,
      return_to: safeReturnTo(returnTo, ctx.config.publicUrl),
      expires_at: iso(later(now, loginTtlMs)),
    })
    .execute();
  await ctx.database.db.deleteFrom('oidc_logins').where('expires_at', '<=', iso(now)).execute();
  return {
    url: url.toString(),
    cookie: {
      name: loginCookieName(ctx.config.publicUrl, checks.state),
      value: binding,
      maxAgeSeconds: loginTtlMs / 1000,
    },
  };
}

/**
 * Completes a sign-in at the callback: the pending sign-in is taken once (replays fail), must belong to this
 * browser, and the code exchange checks PKCE, nonce and the ID token. Then the user is found or created by
 * (issuer, subject), placed in an organization, and a new session opened with the groups kept server-side.
 */
export async function finishOidcLogin(
  ctx: Deps,
  input: {
    query: Record<string, string | undefined>;
    rawQuery: string;
    cookies: Record<string, string | undefined>;
    ip: string;
  },
) {
  const client = oidcClientOf(ctx);
  const { state, pending, cookieName } = await takePendingLogin(ctx, input.query, input.cookies);
  const tokens = await exchangeCode(ctx, client, input.rawQuery, state, pending);
  const claims = tokens.claims();
  if (!claims || !tokens.id_token)
    throw new AppError('sign_in_failed', 'the identity provider returned no ID token');
  const groups = forwardableGroups(claims, ctx.config.groupForwarding ? ctx.config.oidcGroupsClaim : '');
  if (groups.overage)
    ctx.log.warn(
      { sub: claims.sub },
      'the IdP left groups out of the token (group overage); they are not forwarded',
    );
  const { user, orgId, role } = await placeUser(ctx, claims);
  const keepRefresh = ctx.config.oidcUseRefreshToken === true && tokens.refresh_token;
  if (groups.groups.length > 0 && !keepRefresh) {
    ctx.warnOnce(
      'sessions-shortened',
      'sessions that carry IdP groups end when their ID token expires: no refresh token is in use (useRefreshToken off, or the IdP issued none)',
    );
  }
  const session = await ctx.sessions.open({
    userId: user.id,
    orgId,
    method: 'oidc',
    oidc: {
      idToken: tokens.id_token,
      idTokenExpiresAt: new Date(claims.exp * 1000),
      groups: groups.groups,
      refreshToken: keepRefresh ? tokens.refresh_token : undefined,
      sid: typeof claims.sid === 'string' ? claims.sid : undefined,
    },
  });
  await recordSignIn(ctx, {
    user,
    orgId,
    method: 'oidc',
    ip: input.ip,
    detail: { groups: groups.groups.length, groupsDropped: groups.dropped },
  });
  return { ...session, role, returnTo: pending.return_to, loginCookie: cookieName };
}

/** The user of these claims (by issuer and subject), created on first sign-in, placed in an organization. */
function placeUser(ctx: Deps, claims: oidc.IDToken) {
  const email = String(claims.email ?? claims.preferred_username ?? claims.sub);
  const at = iso(ctx.clock.now());
  return ctx.database.db.transaction().execute(async (tx) => {
    const user = await upsertUser(
      tx,
      { issuer: claims.iss, subject: claims.sub, email, name: String(claims.name ?? email) },
      at,
    );
    return { user, ...(await placeMember(tx, ctx, user, ctx.config.oidcDefaultRole)) };
  });
}

/**
 * The sign-in this callback belongs to, taken once (a replay finds nothing) and only in the browser that
 * started it (its binding cookie); an IdP error at the callback is answered in its words.
 */
async function takePendingLogin(
  ctx: Deps,
  query: Record<string, string | undefined>,
  cookies: Record<string, string | undefined>,
) {
  if (query.error) ctx.metrics.signIns.inc({ method: 'oidc', result: 'refused' });
  const state = callbackState(query);
  const cookieName = loginCookieName(ctx.config.publicUrl, state);
  const taken = await ctx.database.db
    .deleteFrom('oidc_logins')
    .where('state_hash', '=', hashSecret(state))
    .returningAll()
    .executeTakeFirst();
  const pending = pendingInThisBrowser(
    taken,
    (row) => ({ bindingHash: row.binding_hash, expiresAt: Date.parse(row.expires_at) }),
    cookies[cookieName],
    ctx.clock.now().getTime(),
  );
  return { state, pending, cookieName };
}

/** The code for tokens at the IdP, with the PKCE verifier and nonce the sign-in started with. */
async function exchangeCode(
  ctx: Deps,
  client: OidcClient,
  rawQuery: string,
  state: string,
  pending: { nonce: string; code_verifier: string },
): Promise<Awaited<ReturnType<OidcClient['exchange']>>> {
  try {
    return await exchangeAtIdp(
      client,
      rawQuery,
      { state, nonce: pending.nonce, codeVerifier: pending.code_verifier },
      ctx.log,
    );
  } catch (failure) {
    ctx.metrics.signIns.inc({ method: 'oidc', result: 'failed' });
    throw failure;
  }
}
