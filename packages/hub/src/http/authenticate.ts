import { AppError } from '@binnacle/common/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HubContext } from '../context.ts';
import { sessionCookie } from '../features/sessions/cookie.ts';
import { activityGranularityMs } from '../features/sessions/store.ts';
import { iso } from '../security/clock.ts';
import { hashSecret, wellFormed } from '../security/tokens.ts';
import type { Principal } from './principal.ts';

const unauthenticated = (message: string) => new AppError('unauthenticated', message);

/**
 * Resolves the caller from `Authorization: Bearer bnp_…` (a PAT) or the session cookie. A bearer header, when
 * present, is the only credential considered. Tokens in query strings are never read.
 */
export async function authenticate(
  ctx: HubContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<Principal> {
  const header = request.headers.authorization;
  if (header !== undefined) return authenticatePat(ctx, header);
  const cookie = sessionCookie(ctx.config.publicUrl);
  const value = request.cookies[cookie.name];
  if (!value) throw unauthenticated('sign in first (no session cookie or bearer token)');
  const found = await ctx.sessions.lookup(value);
  if (found.state === 'unknown') {
    reply.clearCookie(cookie.name, cookie.clear());
    throw unauthenticated('the session is not known; sign in again');
  }
  if (found.state === 'ended') {
    reply.clearCookie(cookie.name, cookie.clear());
    ctx.metrics.sessionsEnded.inc({ reason: found.reason });
    throw new AppError('session_ended', `the session ended (${endMessages[found.reason]}); sign in again`);
  }
  const { session } = found;
  return {
    user: session.user,
    orgId: session.orgId,
    role: session.role,
    via: 'session',
    session: { idHash: session.idHash, method: session.method, expiresAt: session.expiresAt },
  };
}

const endMessages = {
  lifetime: 'its lifetime is over',
  inactivity: 'it was unused for too long',
  membership: 'you are no longer a member of the organization',
  credential: 'the break-glass password changed',
} as const;

async function authenticatePat(ctx: HubContext, header: string): Promise<Principal> {
  const match = /^Bearer (\S+)$/.exec(header);
  if (!match) throw unauthenticated('the Authorization header must be "Bearer bnp_…"');
  const token = match[1] as string;
  // Shape and checksum first: a typo or a foreign token is refused without touching the database.
  if (!wellFormed('bnp', token))
    throw unauthenticated('the bearer token is not a Binnacle personal access token');
  const { db } = ctx.database;
  const row = await db
    .selectFrom('pats')
    .innerJoin('memberships', (join) =>
      join.onRef('memberships.org_id', '=', 'pats.org_id').onRef('memberships.user_id', '=', 'pats.user_id'),
    )
    .innerJoin('users', 'users.id', 'pats.user_id')
    .select(['pats.id', 'pats.org_id', 'pats.expires_at', 'pats.last_used_at', 'memberships.role'])
    .select(['users.id as user_id', 'users.email', 'users.name'])
    .where('pats.token_hash', '=', hashSecret(token))
    .executeTakeFirst();
  // A PAT whose owner left the organization has no membership row: it is refused like an unknown one.
  if (!row) throw unauthenticated('the personal access token is not valid');
  const now = ctx.clock.now();
  if (row.expires_at && now.getTime() >= Date.parse(row.expires_at))
    throw unauthenticated('the personal access token has expired');
  if (!row.last_used_at || now.getTime() - Date.parse(row.last_used_at) >= activityGranularityMs) {
    // Guarded by the value read, so concurrent first uses write once.
    await db
      .updateTable('pats')
      .set({ last_used_at: iso(now) })
      .where('id', '=', row.id)
      .where((eb) =>
        row.last_used_at ? eb('last_used_at', '=', row.last_used_at) : eb('last_used_at', 'is', null),
      )
      .execute();
  }
  return {
    user: { id: row.user_id, email: row.email, name: row.name },
    orgId: row.org_id,
    role: row.role,
    via: 'pat',
    patId: row.id,
  };
}
