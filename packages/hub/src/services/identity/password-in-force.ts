import type { Db } from '../../db/directory.ts';
import { type Clock, iso } from '../../security/clock.ts';
import type { AccessCache } from '../access/access-cache.ts';
import type { Changes } from '../access/changes.ts';

const slot = 'current';
const cacheKey = 'break-glass password in force';

/**
 * Which break-glass password is in force, the same on every replica (ADR 0047): the version of the hub
 * process that last started with a different one (or none, when it had no break-glass admin). A break-glass
 * credential carries the version it was opened under and is valid on any replica exactly while that version
 * is in force, so during a rolling restart replicas on the old and the new password agree about every
 * credential, and the newest password wins.
 */
export class PasswordInForce {
  /** This process's own version; null when it has no break-glass admin. */
  readonly own: string | null;
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #cache: AccessCache;
  readonly #changes: Changes;

  constructor(own: string | null, db: Db, clock: Clock, access: { cache: AccessCache; changes: Changes }) {
    this.own = own;
    this.#db = db;
    this.#clock = clock;
    this.#cache = access.cache;
    this.#changes = access.changes;
  }

  /**
   * At start: puts this process's password in force. Starting with the version already in force changes
   * nothing; starting with another one replaces it, and every replica hears of it. True when it changed.
   */
  async claim(): Promise<boolean> {
    const since = iso(this.#clock.now());
    const changed = await this.#db
      .insertInto('break_glass_password')
      .values({ slot, version: this.own, in_force_since: since })
      .onConflict((oc) =>
        oc
          .column('slot')
          .doUpdateSet({ version: this.own, in_force_since: since })
          .where((eb) => eb('break_glass_password.version', 'is distinct from', eb.ref('excluded.version'))),
      )
      .returning('slot')
      .executeTakeFirst();
    if (changed) this.#changes.announce();
    return changed !== undefined;
  }

  /**
   * Whether a credential opened under `version` is valid. The version in force comes from the access cache;
   * a "no" is confirmed from the database, so a replica that has not yet heard of a new password never ends
   * (or deletes) a credential of it.
   */
  async valid(version: string | null): Promise<boolean> {
    if (version === null) return false;
    const cached = await this.#cache.remember(cacheKey, () => this.#read());
    if (cached?.version === version) return true;
    return (await this.#read()).version === version;
  }

  /** Whether this process's password is the one in force, read from the database: only then may it sign the admin in. */
  async ownInForce(): Promise<boolean> {
    return (await this.#read()).version === this.own;
  }

  async #read(): Promise<{ version: string | null }> {
    const row = await this.#db
      .selectFrom('break_glass_password')
      .select('version')
      .where('slot', '=', slot)
      .executeTakeFirst();
    return { version: row?.version ?? null };
  }
}
