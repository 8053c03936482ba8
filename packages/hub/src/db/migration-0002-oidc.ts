import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** OIDC sessions (ID token, groups, encrypted refresh token), pending sign-ins, and back-channel logout replay guard. */
export const oidcMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('sessions').addColumn('id_token', 'text').execute();
    await db.schema.alterTable('sessions').addColumn('id_token_expires_at', 'text').execute();
    await db.schema
      .alterTable('sessions')
      .addColumn('groups', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
    await db.schema.alterTable('sessions').addColumn('refresh_token_enc', 'text').execute();
    await db.schema.alterTable('sessions').addColumn('idp_sid', 'text').execute();
    await db.schema.alterTable('sessions').addColumn('refresh_lease_until', 'text').execute();
    await db.schema
      .createTable('oidc_logins')
      .addColumn('state_hash', 'text', (c) => c.primaryKey())
      .addColumn('binding_hash', 'text', (c) => c.notNull())
      .addColumn('nonce', 'text', (c) => c.notNull())
      .addColumn('code_verifier', 'text', (c) => c.notNull())
      .addColumn('return_to', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('logout_tokens')
      .addColumn('jti', 'text', (c) => c.primaryKey())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
  },
};
