import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * What is kept of an ended session — its id's hash, why and when it ended — until its absolute lifetime is
 * over, so its cookie is answered `session_ended` with the reason rather than as an unknown one (ADR 0047).
 */
export const endedSessionsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('ended_sessions')
      .addColumn('id_hash', 'text', (c) => c.primaryKey())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('ended_at', 'text', (c) => c.notNull())
      .addColumn('forget_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('ended_sessions_forget').on('ended_sessions').column('forget_at').execute();
  },
};
