import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Role } from '../security/roles.ts';
import { countOf } from './count.ts';
import type { HubSchema, UsersTable } from './schema.ts';

/**
 * Users, organizations and memberships: the directory every feature reads (who is this, which role do they
 * hold where). Users are identified by (issuer, subject), never by e-mail.
 */
export type Db = Kysely<HubSchema>;

/** The issuer recorded for the break-glass admin (OIDC users carry their IdP's issuer URL). */
export const breakGlassIssuer = 'break-glass';
export type UserRow = Pick<UsersTable, 'id' | 'email' | 'name'>;

export interface Identity {
  issuer: string;
  subject: string;
  email: string;
  name: string;
}

/** The user an identity provider's subject is, if they have signed in before. */
export function findUser(db: Db, issuer: string, subject: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'name'])
    .where('idp_issuer', '=', issuer)
    .where('idp_subject', '=', subject)
    .executeTakeFirst();
}

/** Finds the user for an identity, creating it at first sight; e-mail and name follow the identity provider. */
export async function upsertUser(
  db: Db,
  identity: Identity,
  at: string,
): Promise<UserRow & { created: boolean }> {
  const existing = await findUser(db, identity.issuer, identity.subject);
  if (existing) {
    await db
      .updateTable('users')
      .set({ email: identity.email, name: identity.name, last_sign_in_at: at })
      .where('id', '=', existing.id)
      .execute();
    return { id: existing.id, email: identity.email, name: identity.name, created: false };
  }
  const user = { id: randomUUID(), email: identity.email, name: identity.name };
  await db
    .insertInto('users')
    .values({
      ...user,
      idp_issuer: identity.issuer,
      idp_subject: identity.subject,
      created_at: at,
      last_sign_in_at: at,
    })
    .execute();
  return { ...user, created: true };
}

export async function createOrg(db: Db, name: string, at: string): Promise<string> {
  const id = randomUUID();
  await db.insertInto('orgs').values({ id, name, created_at: at }).execute();
  return id;
}

/** The first organization of a fresh hub, named after the domain of the person who creates it. */
export const createFirstOrg = (db: Db, email: string, at: string) =>
  createOrg(db, email.split('@')[1] ?? 'Organization', at);

export async function addMember(
  db: Db,
  orgId: string,
  userId: string,
  role: Role,
  at: string,
): Promise<void> {
  await db
    .insertInto('memberships')
    .values({ org_id: orgId, user_id: userId, role, created_at: at })
    .execute();
}

export async function roleIn(db: Db, orgId: string, userId: string): Promise<Role | undefined> {
  const row = await db
    .selectFrom('memberships')
    .select('role')
    .where('org_id', '=', orgId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.role;
}

export async function membershipsOf(db: Db, userId: string) {
  return db
    .selectFrom('memberships')
    .innerJoin('orgs', 'orgs.id', 'memberships.org_id')
    .select(['orgs.id', 'orgs.name', 'memberships.role', 'memberships.created_at'])
    .where('memberships.user_id', '=', userId)
    .orderBy('memberships.created_at')
    .orderBy('orgs.id')
    .execute();
}

export function ownerCount(db: Db, orgId: string): Promise<number> {
  return countOf(db.selectFrom('memberships').where('org_id', '=', orgId).where('role', '=', 'owner'));
}

/** The first organization ever created: where the break-glass admin and new users land on a one-org hub. */
export async function oldestOrg(db: Db): Promise<string | undefined> {
  const row = await db
    .selectFrom('orgs')
    .select('id')
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}
