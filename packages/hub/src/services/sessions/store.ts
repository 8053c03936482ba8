import type { DeleteQueryBuilder, DeleteResult, Selectable } from 'kysely';
import { countOf } from '../../db/count.ts';
import type { Db, UserRow } from '../../db/directory.ts';
import type { HubSchema, SessionsTable } from '../../db/schema.ts';
import { type Clock, iso, later } from '../../security/clock.ts';
import type { Role } from '../../security/roles.ts';
import type { Sealer } from '../../security/sealed.ts';
import { hashSecret, newSessionId } from '../../security/tokens.ts';
import type { AccessCache } from '../access/access-cache.ts';
import type { Changes } from '../access/changes.ts';
import type { PasswordInForce } from '../identity/password-in-force.ts';

/** Activity is written at most this often, so a busy session costs one write per 10 minutes, not per request. */
export const activityGranularityMs = 10 * 60_000;

export type SessionMethod = SessionsTable['method'];
export type EndReason =
  | 'lifetime'
  | 'inactivity'
  | 'signout'
  | 'replaced'
  | 'membership'
  | 'idp_logout'
  | 'credential'
  | 'id_token_expired'
  | 'idp_rejected';

/** What an OIDC sign-in adds to a session. */
export interface OidcTokens {
  idToken: string;
  idTokenExpiresAt: Date;
  /** Forwardable IdP groups, normalized. */
  groups: string[];
  refreshToken?: string;
  /** The IdP session id, for back-channel logout. */
  sid?: string;
}

export interface ActiveSession {
  idHash: string;
  user: UserRow;
  orgId: string;
  role: Role;
  method: SessionMethod;
  createdAt: string;
  expiresAt: Date;
  groups: string[];
  idToken: string | null;
  idTokenExpiresAt: Date | null;
  /** The refresh token, unsealed; undefined when none is kept. */
  refreshToken: string | undefined;
  /** Break-glass sessions: the password version they were opened with (the one in force while active). */
  credentialVersion: string | null;
}

export type SessionLookup =
  | { state: 'active'; session: ActiveSession }
  /** `justNow`: this lookup ended it (a rule); else it had ended before and its cookie is presented again. */
  | { state: 'ended'; reason: EndReason; justNow: boolean }
  | { state: 'unknown' };

type EndQuery = DeleteQueryBuilder<HubSchema, 'sessions', DeleteResult>;

export interface SessionLimits {
  lifetimeMs: number;
  maxInactiveMs: number;
}

/**
 * Server-side sessions (docs/architecture.md §6.1): the cookie holds a random 256-bit id, the database its SHA-256. A
 * session is ended — its row deleted, so a copied cookie is useless — when its absolute lifetime is reached,
 * when it was unused for the inactivity window, at sign-out or a new sign-in in the same browser, when its
 * user is no longer a member of its organization, when the IdP logs it out, or (break-glass) when the
 * password it was opened with is no longer the one in force. What ended is remembered (hash, reason) until
 * its absolute lifetime is over, so its cookie is answered `session_ended` with the reason (ADR 0047).
 */
export class SessionStore {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #limits: SessionLimits;
  readonly #password: PasswordInForce;
  readonly #sealer: Sealer;
  readonly #cache: AccessCache;
  readonly #changes: Changes;

  constructor(
    db: Db,
    clock: Clock,
    limits: SessionLimits,
    password: PasswordInForce,
    sealer: Sealer,
    access: { cache: AccessCache; changes: Changes },
  ) {
    this.#db = db;
    this.#clock = clock;
    this.#limits = limits;
    this.#password = password;
    this.#sealer = sealer;
    this.#cache = access.cache;
    this.#changes = access.changes;
  }

  /** A new session with a new id (never one the client offered). Returns the cookie value: shown once. */
  async open(input: { userId: string; orgId: string; method: SessionMethod; oidc?: OidcTokens }) {
    const now = this.#clock.now();
    const cookieValue = newSessionId();
    const idHash = hashSecret(cookieValue);
    const expiresAt = later(now, this.#limits.lifetimeMs);
    await this.#db
      .insertInto('sessions')
      .values({
        ...(input.oidc ? this.#tokenColumns(idHash, input.oidc) : {}),
        idp_sid: input.oidc?.sid ?? null,
        id_hash: idHash,
        user_id: input.userId,
        org_id: input.orgId,
        method: input.method,
        created_at: iso(now),
        absolute_expires_at: iso(expiresAt),
        last_seen_at: iso(now),
        credential_version: input.method === 'break-glass' ? this.#password.own : null,
      })
      .execute();
    // A sign-in may have renamed the user (e-mail and name follow the IdP) and so changed who other sessions
    // of theirs are in clusters; it is answered by a GET (the OIDC callback), which announces nothing.
    this.#changes.announce();
    return { cookieValue, expiresAt };
  }

  #tokenColumns(idHash: string, tokens: Omit<OidcTokens, 'sid'>) {
    return {
      id_token: tokens.idToken,
      id_token_expires_at: iso(tokens.idTokenExpiresAt),
      groups: JSON.stringify(tokens.groups),
      refresh_token_enc: tokens.refreshToken ? this.#sealer.seal(tokens.refreshToken, idHash) : null,
    };
  }

  /** Stores refreshed tokens; a refresh that returned no new refresh token keeps the old one (RFC 6749 §6). */
  async storeRefreshed(idHash: string, tokens: Omit<OidcTokens, 'sid'>): Promise<void> {
    const columns = this.#tokenColumns(idHash, tokens);
    await this.#db
      .updateTable('sessions')
      .set({
        ...columns,
        refresh_token_enc: columns.refresh_token_enc ?? undefined,
        refresh_lease_until: null,
      })
      .where('id_hash', '=', idHash)
      .execute();
    // New groups are a new identity in clusters; a refresh happens inside any request, tunneled GETs too.
    this.#changes.announce();
  }

  /**
   * Takes the right to refresh this session for `ms` (one replica at a time); false while another holds it.
   * The lease is released by storeRefreshed or releaseLease, or lapses.
   */
  async takeRefreshLease(idHash: string, ms: number): Promise<boolean> {
    const now = this.#clock.now();
    const result = await this.#db
      .updateTable('sessions')
      .set({ refresh_lease_until: iso(later(now, ms)) })
      .where('id_hash', '=', idHash)
      .where((eb) =>
        eb.or([eb('refresh_lease_until', 'is', null), eb('refresh_lease_until', '<=', iso(now))]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The token part of a session row (another replica may have refreshed it); undefined once it is gone. */
  async tokenState(idHash: string): Promise<{ idTokenExpiresAt: Date | null; groups: string[] } | undefined> {
    const row = await this.#db
      .selectFrom('sessions')
      .select(['id_token_expires_at', 'groups'])
      .where('id_hash', '=', idHash)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      idTokenExpiresAt: row.id_token_expires_at ? new Date(row.id_token_expires_at) : null,
      groups: JSON.parse(row.groups) as string[],
    };
  }

  async releaseLease(idHash: string): Promise<void> {
    await this.#db
      .updateTable('sessions')
      .set({ refresh_lease_until: null })
      .where('id_hash', '=', idHash)
      .execute();
  }

  /** Back-channel logout: the sessions of one IdP session (`sid`), else every session of the IdP user. */
  endForIdpUser(issuer: string, subject: string | undefined, sid: string | undefined): Promise<number> {
    return this.#endWhere('idp_logout', (query) => {
      let scoped = query.where('method', '=', 'oidc');
      if (sid) scoped = scoped.where('idp_sid', '=', sid);
      if (!subject) return scoped;
      return scoped.where('user_id', 'in', (eb) =>
        eb
          .selectFrom('users')
          .select('id')
          .where('idp_issuer', '=', issuer)
          .where('idp_subject', '=', subject),
      );
    });
  }

  /** Sessions with the member's role in their organization (none: no longer a member) and the user. */
  #withRole() {
    return this.#db
      .selectFrom('sessions')
      .leftJoin('memberships', (join) =>
        join
          .onRef('memberships.org_id', '=', 'sessions.org_id')
          .onRef('memberships.user_id', '=', 'sessions.user_id'),
      )
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .selectAll('sessions')
      .select(['memberships.role', 'users.email', 'users.name']);
  }

  /**
   * Which of these sessions are still active by the same rules as `lookup` (without ending or touching any):
   * each active one with its forwarded groups (JSON).
   */
  async activeAmong(idHashes: string[]): Promise<Map<string, string>> {
    const active = new Map<string, string>();
    if (idHashes.length === 0) return active;
    const now = this.#clock.now();
    for (const row of await this.#withRole().where('sessions.id_hash', 'in', idHashes).execute()) {
      if (!(await this.#endReason(row, row.role, now))) active.set(row.id_hash, row.groups);
    }
    return active;
  }

  /**
   * Resolves a cookie value; ends the session when a rule says so, else records activity (throttled). The
   * row comes from the access cache (ADR 0043); the rules are evaluated against it at every request.
   */
  async lookup(cookieValue: string): Promise<SessionLookup> {
    const idHash = hashSecret(cookieValue);
    const cached = await this.#cache.remember(`session ${idHash}`, () => this.#read(idHash));
    const now = this.#clock.now();
    if (!cached) return this.#endedBefore(idHash, now);
    const { row } = cached;
    const reason = await this.#endReason(row, row.role, now);
    if (reason) {
      await this.end(idHash, reason);
      return { state: 'ended', reason, justNow: true };
    }
    const lastSeen = row.last_seen_at;
    if (now.getTime() - Date.parse(lastSeen) >= activityGranularityMs) {
      // The cached row takes the new time first, so concurrent requests of this replica write once.
      row.last_seen_at = iso(now);
      await this.#db
        .updateTable('sessions')
        .set({ last_seen_at: row.last_seen_at })
        .where('id_hash', '=', idHash)
        .where('last_seen_at', '=', lastSeen)
        .execute();
    }
    return { state: 'active', session: cached.session };
  }

  async #endedBefore(idHash: string, now: Date): Promise<SessionLookup> {
    const ended = await this.#db
      .selectFrom('ended_sessions')
      .select('reason')
      .where('id_hash', '=', idHash)
      .where('forget_at', '>', iso(now))
      .executeTakeFirst();
    return ended
      ? { state: 'ended', reason: ended.reason as EndReason, justNow: false }
      : { state: 'unknown' };
  }

  async #read(idHash: string) {
    const row = await this.#withRole().where('sessions.id_hash', '=', idHash).executeTakeFirst();
    if (!row) return undefined;
    const session: ActiveSession = {
      idHash,
      user: { id: row.user_id, email: row.email, name: row.name },
      orgId: row.org_id,
      role: row.role as Role,
      method: row.method,
      createdAt: row.created_at,
      expiresAt: new Date(row.absolute_expires_at),
      groups: JSON.parse(row.groups) as string[],
      idToken: row.id_token,
      idTokenExpiresAt: row.id_token_expires_at ? new Date(row.id_token_expires_at) : null,
      refreshToken: row.refresh_token_enc ? this.#sealer.open(row.refresh_token_enc, idHash) : undefined,
      credentialVersion: row.credential_version,
    };
    return { row, session };
  }

  async #endReason(
    row: Selectable<SessionsTable>,
    role: Role | null,
    now: Date,
  ): Promise<EndReason | undefined> {
    if (now.getTime() >= Date.parse(row.absolute_expires_at)) return 'lifetime';
    if (now.getTime() >= Date.parse(row.last_seen_at) + this.#limits.maxInactiveMs) return 'inactivity';
    if (!role) return 'membership';
    if (row.method === 'break-glass' && !(await this.#password.valid(row.credential_version)))
      return 'credential';
    // Groups are valid only as long as the ID token; without a refresh token the session cannot outlive it.
    const carriesGroups = row.groups !== '[]';
    if (
      carriesGroups &&
      !row.refresh_token_enc &&
      row.id_token_expires_at &&
      now.getTime() >= Date.parse(row.id_token_expires_at)
    ) {
      return 'id_token_expired';
    }
    return undefined;
  }

  /** Ends the session a cookie value names, whatever its state (a sign-in never reuses the one offered). */
  async endByCookie(cookieValue: string): Promise<void> {
    await this.end(hashSecret(cookieValue), 'replaced');
  }

  async end(idHash: string, reason: EndReason): Promise<void> {
    await this.#endWhere(reason, (query) => query.where('id_hash', '=', idHash));
  }

  /** Ends every session of a user in one organization (removal from it). */
  endForMember(userId: string, orgId: string): Promise<number> {
    return this.#endWhere('membership', (query) =>
      query.where('user_id', '=', userId).where('org_id', '=', orgId),
    );
  }

  /**
   * Deletes the sessions `scope` selects and remembers each until its absolute lifetime is over (none is kept
   * past it: its cookie has expired too). Returns how many ended.
   */
  async #endWhere(reason: EndReason, scope: (query: EndQuery) => EndQuery): Promise<number> {
    const now = iso(this.#clock.now());
    const ended = await this.#db.transaction().execute(async (tx) => {
      const rows = await scope(tx.deleteFrom('sessions'))
        .returning(['id_hash', 'absolute_expires_at'])
        .execute();
      const remembered = rows
        .filter((row) => row.absolute_expires_at > now)
        .map((row) => ({ id_hash: row.id_hash, reason, ended_at: now, forget_at: row.absolute_expires_at }));
      if (remembered.length > 0) await tx.insertInto('ended_sessions').values(remembered).execute();
      return rows.length;
    });
    if (ended > 0) this.#changes.announce();
    return ended;
  }

  async switchOrg(idHash: string, orgId: string): Promise<void> {
    await this.#db.updateTable('sessions').set({ org_id: orgId }).where('id_hash', '=', idHash).execute();
    this.#changes.announce();
  }

  /**
   * Ends sessions past their lifetime or inactivity window (an idle one is remembered like any ended session:
   * its cookie may come back) and forgets ended sessions past their lifetime. Returns how many sessions ended.
   */
  async sweep(): Promise<number> {
    const now = this.#clock.now();
    const expired = await this.#endWhere('lifetime', (query) =>
      query.where('absolute_expires_at', '<=', iso(now)),
    );
    const idle = await this.#endWhere('inactivity', (query) =>
      query.where('last_seen_at', '<=', iso(later(now, -this.#limits.maxInactiveMs))),
    );
    await this.#db.deleteFrom('ended_sessions').where('forget_at', '<=', iso(now)).execute();
    return expired + idle;
  }

  countActive(): Promise<number> {
    return countOf(this.#db.selectFrom('sessions').where('absolute_expires_at', '>', iso(this.#clock.now())));
  }
}
