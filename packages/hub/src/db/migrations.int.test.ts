import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { freshDatabase } from '../testing/index.ts';
import { openDatabase } from './database.ts';
import { unversionedCredential } from './migration-0004-pat-credential.ts';
import { migrations } from './migrations.ts';
import type { HubSchema } from './schema.ts';

/** Migrations that change rows, run on a database left at an earlier migration with rows in it, as an upgrade does. */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A database of this test run's kind, migrated only up to `migration`. */
async function databaseAt(migration: string) {
  const location = await freshDatabase();
  cleanups.push(() => rm(location.dataDir, { recursive: true, force: true }));
  const dialect = location.databaseUrl ? 'postgres' : 'sqlite';
  const db = new Kysely<HubSchema>({
    dialect: location.databaseUrl
      ? new PostgresDialect({ pool: new pg.Pool({ connectionString: location.databaseUrl, max: 1 }) })
      : new SqliteDialect({ database: new Database(join(location.dataDir, 'hub.db')) }),
  });
  const { error } = await new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations(dialect)) },
  }).migrateTo(migration);
  if (error) throw error;
  return { db, location };
}

describe('migrations on a database in use', () => {
  it("0004 marks the break-glass admin's PATs as minted under an unknown password, and no one else's", async () => {
    const { db, location } = await databaseAt('0003_billing');
    const at = '2026-11-22T10:00:00.000Z';
    await db.insertInto('orgs').values({ id: 'o1', name: 'acme', created_at: at }).execute();
    await db
      .insertInto('users')
      .values(
        [
          { id: 'admin', email: 'admin@example.com', name: 'Break-glass admin', idp_issuer: 'break-glass' },
          { id: 'dev', email: 'dev@example.com', name: 'dev', idp_issuer: 'https://idp.example.com' },
        ].map((user) => ({ ...user, idp_subject: user.email, created_at: at, last_sign_in_at: at })),
      )
      .execute();
    await db
      .insertInto('pats')
      .values(
        ['admin', 'dev'].map((user) => ({
          id: `pat-${user}`,
          user_id: user,
          org_id: 'o1',
          name: user,
          token_hash: `hash-${user}`,
          hint: 'abcd',
          created_at: at,
          expires_at: null,
          last_used_at: null,
        })) as never,
      )
      .execute();
    await db.destroy();
    const upgraded = await openDatabase(location);
    cleanups.unshift(() => upgraded.close());
    const rows = await upgraded.db
      .selectFrom('pats')
      .select(['id', 'credential_version'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: 'pat-admin', credential_version: unversionedCredential },
      { id: 'pat-dev', credential_version: null },
    ]);
  });
});
