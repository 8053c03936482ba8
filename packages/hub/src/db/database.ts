import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { type Dialect, migrations } from './migrations.ts';
import type { HubSchema } from './schema.ts';

export interface HubDatabase {
  db: Kysely<HubSchema>;
  dialect: Dialect;
  /** Where it lives, without credentials (for logs and /metrics). */
  location: string;
  close(): Promise<void>;
}

export class DatabaseError extends Error {}

/**
 * Prepared statements kept, least recently used out first. The hub's own queries are a few dozen texts; each
 * length of an `in (…)` list is one more, and those rare ones are what falls out.
 */
const keptStatements = 256;

/**
 * better-sqlite3 with its prepared statements reused: Kysely prepares every query afresh, which was ~13 % of
 * the hub's CPU on the cookie path. Safe while no query streams (`iterate`), which the hub never does: a
 * statement in the middle of an iteration cannot run again.
 */
function reusingStatements(sqlite: Database.Database) {
  const statements = new Map<string, Database.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (statement) statements.delete(sql);
      else statement = sqlite.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > keptStatements) statements.delete(statements.keys().next().value as string);
      return statement;
    },
  };
}

/**
 * Opens the hub database — PostgreSQL when a URL is given, else SQLite in the data dir — and runs the
 * migrations it has not run yet. A database that cannot be reached or migrated stops the hub with a message.
 */
export async function openDatabase(options: { databaseUrl?: string; dataDir: string }): Promise<HubDatabase> {
  let db: Kysely<HubSchema>;
  let dialect: Dialect;
  let location: string;
  if (options.databaseUrl) {
    const url = new URL(options.databaseUrl);
    location = `postgres://${url.host}${url.pathname}`;
    dialect = 'postgres';
    db = new Kysely<HubSchema>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: options.databaseUrl, max: 20 }) }),
    });
  } else {
    mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
    location = join(options.dataDir, 'hub.db');
    dialect = 'sqlite';
    const sqlite = new Database(location);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 10000');
    db = new Kysely<HubSchema>({ dialect: new SqliteDialect({ database: reusingStatements(sqlite) }) });
  }
  const { error } = await new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations(dialect)) },
  }).migrateToLatest();
  if (error) {
    await db.destroy();
    const reason = (error as Error).message || String(error);
    throw new DatabaseError(`database ${location} could not be opened or migrated: ${reason}`);
  }
  return { db, dialect, location, close: () => db.destroy() };
}
