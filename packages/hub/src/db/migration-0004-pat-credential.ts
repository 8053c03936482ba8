import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Matches no password version (those are hex HMACs): PATs marked with it are refused. */
export const unversionedCredential = 'minted-before-versioning';

/**
 * A PAT minted in a break-glass session records the password version of that session, so a new break-glass
 * password ends it as it ends the sessions (ADR 0047). Null for PATs minted in any other session. The break-glass
 * admin's PATs minted before this are marked with a version no password has: which password they were minted
 * under is unknown, and one that leaked must not keep them working, so they end.
 */
export const patCredentialMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('pats').addColumn('credential_version', 'text').execute();
    await sql`update pats set credential_version = ${unversionedCredential}
      where user_id in (select id from users where idp_issuer = ${'break-glass'})`.execute(db);
  },
};
