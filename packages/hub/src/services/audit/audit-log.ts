import type { Db } from '../../db/directory.ts';
import { type Clock, iso } from '../../security/clock.ts';
import type { Principal } from '../../security/principal.ts';

/**
 * What an entry is about, named as it was at the time (ADR 0068): the name stays readable after the object is
 * renamed or deleted.
 */
export interface AuditTarget {
  type: string;
  id: string;
  name: string;
}

/** A person as an audit target: named by their e-mail, which identifies them where a display name may not. */
export const userTarget = (user: { id: string; email: string }): AuditTarget => ({
  type: 'user',
  id: user.id,
  name: user.email,
});

export interface AuditEntry {
  orgId: string;
  /** The acting person; undefined for the system or an anonymous sign-in attempt. */
  actor?: Pick<Principal, 'user' | 'via' | 'patId' | 'patName'> | { email: string };
  action: string;
  target?: AuditTarget;
  /** A short, secret-free detail (a name, a role change); never tokens or passwords. */
  detail?: Record<string, string | number | boolean | null>;
  ip?: string;
}

export const maxAuditPage = 200;

/** The organization audit log: one row per state-changing action, newest first, paged by id. */
export class AuditLog {
  readonly #db: Db;
  readonly #clock: Clock;

  constructor(db: Db, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
  }

  async record(entry: AuditEntry): Promise<void> {
    const actor = entry.actor;
    const person = actor && 'user' in actor ? actor : undefined;
    await this.#db
      .insertInto('audit_events')
      .values({
        org_id: entry.orgId,
        at: iso(this.#clock.now()),
        actor_user_id: person?.user.id ?? null,
        actor_email: person?.user.email ?? (actor && 'email' in actor ? actor.email : null),
        actor_name: person?.user.name ?? null,
        via: person?.via ?? 'system',
        pat_id: person?.patId ?? null,
        pat_name: person?.patName ?? null,
        action: entry.action,
        target_type: entry.target?.type ?? null,
        target_id: entry.target?.id ?? null,
        target_name: entry.target?.name ?? null,
        detail: entry.detail ? JSON.stringify(entry.detail) : null,
        ip: entry.ip ?? null,
      })
      .execute();
  }

  /** An action of the caller in the organization they act in. */
  act(
    principal: Principal,
    ip: string,
    action: string,
    target?: AuditEntry['target'],
    detail?: AuditEntry['detail'],
  ): Promise<void> {
    return this.record({ orgId: principal.orgId, actor: principal, action, target, detail, ip });
  }

  /** A page of entries older than `before` (an entry id), newest first; `nextCursor` continues it. */
  async page(orgId: string, options: { limit: number; before?: number; action?: string }) {
    let query = this.#db
      .selectFrom('audit_events')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('id', 'desc')
      .limit(options.limit + 1);
    if (options.before !== undefined) query = query.where('id', '<', options.before);
    if (options.action !== undefined) query = query.where('action', '=', options.action);
    const rows = await query.execute();
    const items = rows.slice(0, options.limit).map((row) => ({
      id: Number(row.id),
      at: row.at,
      actor:
        row.actor_user_id || row.actor_email
          ? { userId: row.actor_user_id, email: row.actor_email, name: row.actor_name }
          : null,
      via: row.via,
      patId: row.pat_id,
      patName: row.pat_name,
      action: row.action,
      target: row.target_type ? { type: row.target_type, id: row.target_id, name: row.target_name } : null,
      detail: row.detail ? (JSON.parse(row.detail) as Record<string, unknown>) : null,
      ip: row.ip,
    }));
    const last = items.at(-1);
    return { items, nextCursor: rows.length > options.limit && last ? String(last.id) : null };
  }
}
