import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Which break-glass password is in force, for every replica at once: one row, written by each hub process at
 * start (ADR 0047). A credential is valid while the version it was opened under is this one.
 */
export const breakGlassInForceMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('break_glass_password')
      .addColumn('slot', 'text', (c) => c.primaryKey())
      .addColumn('version', 'text')
      .addColumn('in_force_since', 'text', (c) => c.notNull())
      .execute();
  },
};
