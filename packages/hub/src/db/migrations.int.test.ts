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

  it('0007 names the targets, actors and PATs of earlier audit entries, deleted ones included where anything named them', async () => {
    const { db, location } = await databaseAt('0006_break_glass_in_force');
    const at = '2026-11-22T10:00:00.000Z';
    await db.insertInto('orgs').values({ id: 'o1', name: 'acme', created_at: at }).execute();
    await db
      .insertInto('users')
      .values({
        id: 'u1',
        email: 'dev@example.com',
        name: 'Dev Eloper',
        idp_issuer: 'https://idp.example.com',
        idp_subject: 'dev',
        created_at: at,
        last_sign_in_at: at,
      })
      .execute();
    await db
      .insertInto('clusters')
      .values({
        id: 'c-live',
        org_id: 'o1',
        name: 'live-eu',
        token_hash: 'h',
        token_hint: 'abcd',
        created_at: at,
        created_by: 'u1',
        token_rotated_at: null,
        last_seen_at: null,
        agent_version: null,
      })
      .execute();
    await db
      .insertInto('pats')
      .values({
        id: 'p-live',
        user_id: 'u1',
        org_id: 'o1',
        name: 'deploys',
        token_hash: 'hp',
        hint: 'abcd',
        created_at: at,
        expires_at: null,
        last_used_at: null,
      } as never)
      .execute();
    const entry = (action: string, target: [string, string] | null, detail: object | null, patId = '') => ({
      org_id: 'o1',
      at,
      actor_user_id: 'u1',
      actor_email: 'dev@example.com',
      via: patId ? 'pat' : 'session',
      pat_id: patId || null,
      action,
      target_type: target?.[0] ?? null,
      target_id: target?.[1] ?? null,
      detail: detail && JSON.stringify(detail),
      ip: '127.0.0.1',
    });
    await db
      .insertInto('audit_events')
      .values([
        entry('cluster.create', ['cluster', 'c-live'], { name: 'live' }),
        entry('auth.sign_in', ['user', 'u1'], { method: 'oidc' }),
        entry('cluster.delete', ['cluster', 'c-gone'], { name: 'gone' }),
        entry('pat.create', ['pat', 'p-revoked'], { name: 'ci', expiresAt: null }),
        entry('pat.revoke', ['pat', 'p-revoked'], null),
        entry('cluster.rotate_token', ['cluster', 'c-live'], { name: 'live-eu' }, 'p-revoked'),
        entry('org.update', ['org', 'o1'], { from: 'acme-old', to: 'acme' }, 'p-live'),
        entry('invitation.revoke', ['invitation', 'i-unknown'], null),
        entry('auth.sign_in_failed', null, { method: 'break-glass' }),
      ] as never)
      .execute();
    await db.destroy();
    const upgraded = await openDatabase(location);
    cleanups.unshift(() => upgraded.close());
    const rows = await upgraded.db
      .selectFrom('audit_events')
      .select(['action', 'target_name', 'actor_name', 'pat_name'])
      .orderBy('id')
      .execute();
    expect(rows.map((row) => [row.action, row.target_name, row.pat_name])).toEqual([
      ['cluster.create', 'live', null], // the name then, not the cluster's name now
      ['auth.sign_in', 'dev@example.com', null],
      ['cluster.delete', 'gone', null],
      ['pat.create', 'ci', null],
      ['pat.revoke', 'ci', null], // revoked: named by its creation entry
      ['cluster.rotate_token', 'live-eu', 'ci'],
      ['org.update', 'acme', 'deploys'],
      ['invitation.revoke', null, null], // nothing ever named it
      ['auth.sign_in_failed', null, null],
    ]);
    expect(new Set(rows.map((row) => row.actor_name))).toEqual(new Set(['Dev Eloper']));
  });
});
