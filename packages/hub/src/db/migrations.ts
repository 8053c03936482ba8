import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { oidcMigration } from './migration-0002-oidc.ts';
import { billingMigration } from './migration-0003-billing.ts';
import { patCredentialMigration } from './migration-0004-pat-credential.ts';
import { endedSessionsMigration } from './migration-0005-ended-sessions.ts';
import { breakGlassInForceMigration } from './migration-0006-break-glass-in-force.ts';
import { auditNamesMigration } from './migration-0007-audit-names.ts';

export type Dialect = 'sqlite' | 'postgres';

/**
 * Forward-only migrations, run at boot on SQLite and PostgreSQL alike. Never edit one that has shipped: add
 * the next. Names sort in order.
 */
export function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '0001_core': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('orgs')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('users')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('email', 'text', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('idp_issuer', 'text', (c) => c.notNull())
          .addColumn('idp_subject', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('last_sign_in_at', 'text')
          .addUniqueConstraint('users_identity', ['idp_issuer', 'idp_subject'])
          .execute();
        await db.schema
          .createTable('memberships')
          .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
          .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('role', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('memberships_pk', ['org_id', 'user_id'])
          .execute();
        await db.schema
          .createTable('sessions')
          .addColumn('id_hash', 'text', (c) => c.primaryKey())
          .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
          .addColumn('method', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('absolute_expires_at', 'text', (c) => c.notNull())
          .addColumn('last_seen_at', 'text', (c) => c.notNull())
          .addColumn('credential_version', 'text')
          .execute();
        await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
        await db.schema
          .createTable('pats')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('token_hash', 'text', (c) => c.notNull().unique())
          .addColumn('hint', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('expires_at', 'text')
          .addColumn('last_used_at', 'text')
          .execute();
        await db.schema
          .createTable('clusters')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('token_hash', 'text', (c) => c.notNull().unique())
          .addColumn('token_hint', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('created_by', 'text', (c) => c.notNull())
          .addColumn('token_rotated_at', 'text')
          .addColumn('last_seen_at', 'text')
          .addColumn('agent_version', 'text')
          .addUniqueConstraint('clusters_org_name', ['org_id', 'name'])
          .execute();
        await db.schema
          .createTable('invitations')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
          .addColumn('email', 'text', (c) => c.notNull())
          .addColumn('role', 'text', (c) => c.notNull())
          .addColumn('token_hash', 'text', (c) => c.notNull().unique())
          .addColumn('created_by', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('expires_at', 'text', (c) => c.notNull())
          .addColumn('accepted_at', 'text')
          .addColumn('accepted_by', 'text')
          .execute();
        await db.schema
          .createTable('audit_events')
          .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
            dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn('org_id', 'text', (c) => c.notNull())
          .addColumn('at', 'text', (c) => c.notNull())
          .addColumn('actor_user_id', 'text')
          .addColumn('actor_email', 'text')
          .addColumn('via', 'text', (c) => c.notNull())
          .addColumn('pat_id', 'text')
          .addColumn('action', 'text', (c) => c.notNull())
          .addColumn('target_type', 'text')
          .addColumn('target_id', 'text')
          .addColumn('detail', 'text')
          .addColumn('ip', 'text')
          .execute();
        await db.schema.createIndex('audit_org_id').on('audit_events').columns(['org_id', 'id']).execute();
        await db.schema
          .createTable('preferences')
          .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
          .addColumn('data', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();
      },
    },
    '0002_oidc': oidcMigration,
    '0003_billing': billingMigration,
    '0004_pat_credential': patCredentialMigration,
    '0005_ended_sessions': endedSessionsMigration,
    '0006_break_glass_in_force': breakGlassInForceMigration,
    '0007_audit_names': auditNamesMigration(dialect),
  };
}
