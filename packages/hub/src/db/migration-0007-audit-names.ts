import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from './migrations.ts';

/** Each kind of audit target, the table it lives in and the column that names it. */
const targetNames = [
  ['cluster', 'clusters', 'name'],
  ['org', 'orgs', 'name'],
  ['user', 'users', 'email'],
  ['pat', 'pats', 'name'],
  ['invitation', 'invitations', 'email'],
] as const;

/**
 * Audit entries name who and what at write time (ADR 0068): the actor's display name, the PAT's name, the target's
 * name. Entries written before get them here, best first: the name the entry's own detail recorded then (`name`,
 * an `email`, a rename's `to`); else the object's row as it is now; else, for an object deleted since, the name
 * another entry for it has (a PAT revoked by its owner, whose creation entry named it). Actors and PATs are named
 * as they are now. What none of these knows stays null, and the log shows the id alone.
 */
export function auditNamesMigration(dialect: Dialect): Migration {
  const fromDetail = (key: string): RawBuilder<unknown> =>
    dialect === 'postgres'
      ? sql`(detail::json ->> ${sql.lit(key)})`
      : sql`json_extract(detail, ${sql.lit(`$.${key}`)})`;
  return {
    async up(db: Kysely<unknown>) {
      // One column a statement: SQLite adds no more.
      for (const column of ['actor_name', 'pat_name', 'target_name'])
        await db.schema.alterTable('audit_events').addColumn(column, 'text').execute();
      // Only for the look-ups below, which find the entries of one object.
      await db.schema
        .createIndex('audit_target_backfill')
        .on('audit_events')
        .columns(['target_type', 'target_id'])
        .execute();
      await sql`update audit_events set actor_name =
        (select name from users where users.id = audit_events.actor_user_id)
        where actor_user_id is not null`.execute(db);
      await sql`update audit_events set target_name = coalesce(${fromDetail('name')}, ${fromDetail('email')}, ${fromDetail('to')})
        where target_type is not null and detail is not null`.execute(db);
      for (const [type, table, column] of targetNames) {
        await sql`update audit_events set target_name =
          (select ${sql.ref(column)} from ${sql.table(table)} where ${sql.ref(`${table}.id`)} = audit_events.target_id)
          where target_type = ${type} and target_name is null`.execute(db);
      }
      await sql`update audit_events set target_name =
        (select other.target_name from audit_events other
          where other.target_type = audit_events.target_type and other.target_id = audit_events.target_id
          and other.target_name is not null limit 1)
        where target_name is null and target_type is not null`.execute(db);
      await sql`update audit_events set pat_name = coalesce(
          (select name from pats where pats.id = audit_events.pat_id),
          (select other.target_name from audit_events other
            where other.target_type = ${'pat'} and other.target_id = audit_events.pat_id
            and other.target_name is not null limit 1))
        where pat_id is not null`.execute(db);
      await db.schema.dropIndex('audit_target_backfill').execute();
    },
  };
}
