import type { Role } from '../../context.ts';
import { countOf } from '../../db/count.ts';
import type { Db, UserRow } from '../../db/directory.ts';
import type { SessionsTable } from '../../db/schema.ts';
import { type Clock, iso, later } from '../../security/clock.ts';
import { hashSecret, newSessionId } from '../../security/tokens.ts';

/** Activity is written at most this often, so a busy session costs one write per 10 minutes, not per request. */
export const activityGranularityMs = 10 * 60_000;

export type SessionMethod = SessionsTable['method'];
export type EndReason = 'lifetime' | 'inactivity' | 'membership' | 'credential';

export interface ActiveSession {
  idHash: string;
  user: UserRow;
  orgId: string;
  role: Role;
  method: SessionMethod;
  createdAt: string;
  expiresAt: Date;
}

export type SessionLookup =
  | { state: 'active'; session: ActiveSession }
  | { state: 'ended'; reason: EndReason }
  | { state: 'unknown' };

export interface SessionLimits {
  lifetimeMs: number;
  maxInactiveMs: number;
}

/**
 * Server-side sessions (DESIGN §6.1): the cookie holds a random 256-bit id, the database its SHA-256. A
 * session is ended — its row deleted, so a copied cookie is useless — when its absolute lifetime is reached,
 * when it was unused for the inactivity window, when its user is no longer a member of its organization, or
 * (break-glass) when the password it was opened with is no longer the configured one.
 */
export class SessionStore {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #limits: SessionLimits;
  readonly #breakGlassVersion: string | undefined;

  constructor(db: Db, clock: Clock, limits: SessionLimits, breakGlassVersion: string | undefined) {
    this.#db = db;
    this.#clock = clock;
    this.#limits = limits;
    this.#breakGlassVersion = breakGlassVersion;
  }

  /** A new session with a new id (never one the client offered). Returns the cookie value: shown once. */
  async open(input: { userId: string; orgId: string; method: SessionMethod }) {
    const now = this.#clock.now();
    const cookieValue = newSessionId();
    const expiresAt = later(now, this.#limits.lifetimeMs);
    await this.#db
      .insertInto('sessions')
      .values({
        id_hash: hashSecret(cookieValue),
        user_id: input.userId,
        org_id: input.orgId,
        method: input.method,
        created_at: iso(now),
        absolute_expires_at: iso(expiresAt),
        last_seen_at: iso(now),
        credential_version: input.method === 'break-glass' ? (this.#breakGlassVersion ?? null) : null,
      })
      .execute();
    return { cookieValue, expiresAt };
  }

  /** Resolves a cookie value; ends the session when a rule says so, else records activity (throttled). */
  async lookup(cookieValue: string): Promise<SessionLookup> {
    const idHash = hashSecret(cookieValue);
    const row = await this.#db
      .selectFrom('sessions')
      .leftJoin('memberships', (join) =>
        join
          .onRef('memberships.org_id', '=', 'sessions.org_id')
          .onRef('memberships.user_id', '=', 'sessions.user_id'),
      )
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .selectAll('sessions')
      .select(['memberships.role', 'users.email', 'users.name'])
      .where('sessions.id_hash', '=', idHash)
      .executeTakeFirst();
    if (!row) return { state: 'unknown' };
    const now = this.#clock.now();
    const reason = this.#endReason(row, row.role, now);
    if (reason) {
      await this.end(idHash);
      return { state: 'ended', reason };
    }
    if (now.getTime() - Date.parse(row.last_seen_at) >= activityGranularityMs) {
      await this.#db
        .updateTable('sessions')
        .set({ last_seen_at: iso(now) })
        .where('id_hash', '=', idHash)
        .where('last_seen_at', '=', row.last_seen_at)
        .execute();
    }
    return {
      state: 'active',
      session: {
        idHash,
        user: { id: row.user_id, email: row.email, name: row.name },
        orgId: row.org_id,
        role: row.role as Role,
        method: row.method,
        createdAt: row.created_at,
        expiresAt: new Date(row.absolute_expires_at),
      },
    };
  }

  #endReason(row: SessionsTable, role: Role | null, now: Date): EndReason | undefined {
    if (now.getTime() >= Date.parse(row.absolute_expires_at)) return 'lifetime';
    if (now.getTime() >= Date.parse(row.last_seen_at) + this.#limits.maxInactiveMs) return 'inactivity';
    if (!role) return 'membership';
    if (row.method === 'break-glass' && row.credential_version !== (this.#breakGlassVersion ?? null))
      return 'credential';
    return undefined;
  }

  async end(idHash: string): Promise<void> {
    await this.#db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
  }

  /** Ends every session of a user in one organization (removal from it). */
  async endForMember(userId: string, orgId: string): Promise<number> {
    const result = await this.#db
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async switchOrg(idHash: string, orgId: string): Promise<void> {
    await this.#db.updateTable('sessions').set({ org_id: orgId }).where('id_hash', '=', idHash).execute();
  }

  /** Deletes sessions past their lifetime or inactivity window (rows nobody will present again). */
  async sweep(): Promise<number> {
    const now = this.#clock.now();
    const result = await this.#db
      .deleteFrom('sessions')
      .where((eb) =>
        eb.or([
          eb('absolute_expires_at', '<=', iso(now)),
          eb('last_seen_at', '<=', iso(later(now, -this.#limits.maxInactiveMs))),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  countActive(): Promise<number> {
    return countOf(this.#db.selectFrom('sessions').where('absolute_expires_at', '>', iso(this.#clock.now())));
  }
}
