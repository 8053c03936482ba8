import { AppError, unauthenticated } from '@binnacle/common/server';
import { type Clock, iso } from '../security/clock.ts';
import type { Principal } from '../security/principal.ts';
import { hashSecret, wellFormed } from '../security/tokens.ts';
import type { Changes } from '../services/access/changes.ts';
import type { AuditLog } from '../services/audit/audit-log.ts';
import { idpUnavailable } from '../services/identity/oidc-client.ts';
import type { PasswordInForce } from '../services/identity/password-in-force.ts';
import type { HubMetrics } from '../services/metrics/registry.ts';
import { sessionCookie } from '../services/sessions/cookie.ts';
import type { SessionRefresher } from '../services/sessions/refresh.ts';
import {
  type ActiveSession,
  activityGranularityMs,
  type EndReason,
  type SessionStore,
} from '../services/sessions/store.ts';
import {
  authenticateAccessToken,
  authenticateHosted,
  type ExternalIdentityDeps,
} from './external-identity.ts';

/**
 * What authenticating a request reads: the sessions and their refresher, the PATs' rows and the break-glass
 * password in force, the identity providers; it counts ended sessions and audits the PATs it revokes.
 */
export interface AuthenticationDeps extends ExternalIdentityDeps {
  clock: Clock;
  sessions: SessionStore;
  refresher?: SessionRefresher;
  breakGlass: { inForce: PasswordInForce };
  metrics: HubMetrics;
  audit: AuditLog;
  changes: Changes;
}

/** What a request offers as credentials: its headers and parsed cookies (plain HTTP requests and upgrades alike). */
export interface Credentials {
  headers: Record<string, string | string[] | undefined>;
  cookies: Record<string, string | undefined>;
  /** The request URL: an access token's accepted audience depends on the MCP resource it is for. */
  url: string;
  /** The client's address, for the audit log of what authentication itself ends. */
  ip: string;
}

/**
 * Resolves the caller from `Authorization: Bearer …` (a PAT `bnp_…`, or an IdP access token for AI agents),
 * else the hub's session cookie, else the hosted identity provider's cookie. A bearer header, when present,
 * is the only credential considered. Tokens in query strings are never read.
 */
export async function authenticate(
  ctx: AuthenticationDeps,
  request: Credentials,
  clearSessionCookie: () => void,
): Promise<Principal> {
  const header = request.headers.authorization;
  if (header !== undefined) return authenticateBearer(ctx, String(header), request);
  const cookie = sessionCookie(ctx.config.publicUrl);
  const value = request.cookies[cookie.name];
  const hostedToken = ctx.hosted ? request.cookies[ctx.hosted.cookie] : undefined;
  if (!value && hostedToken) {
    const hosted = await authenticateHosted(ctx, hostedToken);
    if (hosted) return hosted;
    throw unauthenticated(
      'the hosted sign-in is not valid (expired or not signed by the configured provider); sign in again',
    );
  }
  if (!value) throw unauthenticated('sign in first (no session cookie or bearer token)');
  const found = await ctx.sessions.lookup(value);
  if (found.state === 'unknown') {
    clearSessionCookie();
    throw unauthenticated('the session is not known; sign in again');
  }
  const ended = (reason: EndReason, justNow = true) => {
    clearSessionCookie();
    if (justNow) ctx.metrics.sessionsEnded.inc({ reason });
    return new AppError('session_ended', `the session ended (${endMessages[reason]}); sign in again`);
  };
  if (found.state === 'ended') throw ended(found.reason, found.justNow);
  const { session } = found;
  return {
    user: session.user,
    orgId: session.orgId,
    role: session.role,
    via: 'session',
    groups: await currentGroups(ctx, session, ended),
    session: {
      idHash: session.idHash,
      method: session.method,
      expiresAt: session.expiresAt,
      idToken: session.idToken,
      credentialVersion: session.credentialVersion,
    },
  };
}

/**
 * The session's groups, refreshing its ID token first when it is about to expire (docs/architecture.md §6.2): a rejection
 * ends the session; while the IdP is unavailable the request proceeds as long as the old ID token is valid,
 * and fails with 503 (session kept) once it is not.
 */
async function currentGroups(
  ctx: AuthenticationDeps,
  session: ActiveSession,
  ended: (reason: EndReason) => AppError,
): Promise<string[]> {
  if (!ctx.refresher?.due(session)) return session.groups;
  const outcome = await ctx.refresher.refresh(session);
  if (outcome.state === 'fresh') return outcome.groups;
  if (outcome.state === 'rejected') throw ended('idp_rejected');
  const stillValid = (session.idTokenExpiresAt?.getTime() ?? 0) > ctx.clock.now().getTime();
  if (stillValid) return session.groups;
  if (outcome.state === 'client_misconfigured') {
    throw new AppError(
      'oidc_client_misconfigured',
      'the identity provider refused the hub client credentials; an administrator must fix the OIDC settings',
    );
  }
  throw idpUnavailable('token refresh');
}

const endMessages: Record<EndReason, string> = {
  lifetime: 'its lifetime is over',
  inactivity: 'it was unused for too long',
  signout: 'you signed out',
  replaced: 'a new sign-in in this browser replaced it',
  membership: 'you are no longer a member of the organization',
  idp_logout: 'the identity provider signed you out',
  credential: 'the break-glass password changed',
  id_token_expired: 'its ID token expired and no refresh token is in use',
  idp_rejected: 'the identity provider refused to refresh it',
};

async function authenticateBearer(
  ctx: AuthenticationDeps,
  header: string,
  request: Credentials,
): Promise<Principal> {
  const match = /^Bearer (\S+)$/.exec(header);
  if (!match) throw unauthenticated('the Authorization header must be "Bearer bnp_…"');
  const token = match[1] as string;
  if (/^[\w-]+\.[\w-]+\.[\w-]+$/.test(token)) return authenticateAccessToken(ctx, token, request.url);
  return authenticatePat(ctx, token, request.ip);
}

async function authenticatePat(ctx: AuthenticationDeps, token: string, ip: string): Promise<Principal> {
  // Shape and checksum first: a typo or a foreign token is refused without touching the database.
  if (!wellFormed('bnp', token))
    throw unauthenticated('the bearer token is not a Binnacle personal access token');
  const { db } = ctx.database;
  const tokenHash = hashSecret(token);
  const row = await ctx.accessCache.remember(`pat ${tokenHash}`, () =>
    db
      .selectFrom('pats')
      .innerJoin('memberships', (join) =>
        join
          .onRef('memberships.org_id', '=', 'pats.org_id')
          .onRef('memberships.user_id', '=', 'pats.user_id'),
      )
      .innerJoin('users', 'users.id', 'pats.user_id')
      .select(['pats.id', 'pats.org_id', 'pats.name as pat_name', 'pats.expires_at', 'pats.last_used_at'])
      .select(['pats.credential_version', 'memberships.role'])
      .select(['users.id as user_id', 'users.email', 'users.name'])
      .where('pats.token_hash', '=', tokenHash)
      .executeTakeFirst(),
  );
  // A PAT whose owner left the organization has no membership row: it is refused like an unknown one.
  if (!row) throw unauthenticated('the personal access token is not valid');
  const now = ctx.clock.now();
  if (row.expires_at && now.getTime() >= Date.parse(row.expires_at))
    throw unauthenticated('the personal access token has expired');
  // Compared at every request, on every replica, with the password in force (not this process's own).
  const version = row.credential_version;
  if (version !== null && !(await ctx.breakGlass.inForce.valid(version))) {
    await endRotatedPat(ctx, { id: row.id, orgId: row.org_id, name: row.pat_name, version }, ip);
    throw unauthenticated(
      'the personal access token was minted in a break-glass session and the break-glass password has changed since; it is revoked',
    );
  }
  const lastUsed = row.last_used_at;
  if (!lastUsed || now.getTime() - Date.parse(lastUsed) >= activityGranularityMs) {
    // The cached row takes the new time first, so concurrent requests of this replica write once; the
    // guard on the value read does the same across replicas.
    row.last_used_at = iso(now);
    await db
      .updateTable('pats')
      .set({ last_used_at: row.last_used_at })
      .where('id', '=', row.id)
      .where((eb) => (lastUsed ? eb('last_used_at', '=', lastUsed) : eb('last_used_at', 'is', null)))
      .execute();
  }
  return {
    user: { id: row.user_id, email: row.email, name: row.name },
    orgId: row.org_id,
    role: row.role,
    via: 'pat',
    groups: [],
    patId: row.id,
    patName: row.pat_name,
    expiresAt: row.expires_at ? new Date(row.expires_at) : undefined,
  };
}

/**
 * A PAT minted under a break-glass password that is no longer the one in force: deleted by whichever replica
 * sees it first (only if it still carries that version) and audited once, as the hub's own revocation.
 */
async function endRotatedPat(
  ctx: Pick<AuthenticationDeps, 'database' | 'changes' | 'audit'>,
  pat: { id: string; orgId: string; name: string; version: string },
  ip: string,
) {
  const result = await ctx.database.db
    .deleteFrom('pats')
    .where('id', '=', pat.id)
    .where('credential_version', '=', pat.version)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) return;
  ctx.changes.announce();
  await ctx.audit.record({
    orgId: pat.orgId,
    action: 'pat.revoke',
    target: { type: 'pat', id: pat.id, name: pat.name },
    detail: { name: pat.name, reason: 'the break-glass password changed' },
    ip,
  });
}
