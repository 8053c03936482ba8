import { randomUUID } from 'node:crypto';
import { parseDuration } from '@binnacle/common';
import { AppError, badRequest, notFound } from '@binnacle/common/server';
import type { HubContext } from '../../context.ts';
import { countOf } from '../../db/count.ts';
import { iso, later } from '../../security/clock.ts';
import type { Principal } from '../../security/principal.ts';
import { mintToken } from '../../security/tokens.ts';

type Deps = Pick<HubContext, 'audit' | 'clock' | 'database'>;

export const maxPatsPerUser = 100;
const maxLifetimeMs = 8760 * 3_600_000;

const view = (row: {
  id: string;
  name: string;
  hint: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
}) => ({
  id: row.id,
  name: row.name,
  hint: row.hint,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  lastUsedAt: row.last_used_at,
});

/** The caller's own PATs in the organization they act in; the token itself is never shown again. */
export async function listPats(ctx: Deps, principal: Principal) {
  const rows = await ctx.database.db
    .selectFrom('pats')
    .selectAll()
    .where('user_id', '=', principal.user.id)
    .where('org_id', '=', principal.orgId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map(view);
}

function expiryOf(expiresIn: string | undefined, now: Date): string | null {
  if (expiresIn === undefined) return null;
  let ms: number;
  try {
    ms = parseDuration(expiresIn, 'expiresIn');
  } catch (error) {
    throw badRequest((error as Error).message);
  }
  if (ms <= 0 || ms > maxLifetimeMs)
    throw badRequest('expiresIn: must be more than 0 and at most 8760h (one year)');
  return iso(later(now, ms));
}

/** Mints a PAT for the caller, pinned to the organization they act in. The token is returned once. */
export async function mintPat(
  ctx: Deps,
  principal: Principal,
  input: { name: string; expiresIn?: string },
  ip: string,
) {
  const now = ctx.clock.now();
  const expiresAt = expiryOf(input.expiresIn, now);
  const { db } = ctx.database;
  const count = await countOf(
    db.selectFrom('pats').where('user_id', '=', principal.user.id).where('org_id', '=', principal.orgId),
  );
  if (count >= maxPatsPerUser) {
    throw new AppError(
      'conflict',
      `you already have ${maxPatsPerUser} tokens in this organization; delete one first`,
    );
  }
  const minted = mintToken('bnp');
  const row = {
    id: randomUUID(),
    user_id: principal.user.id,
    org_id: principal.orgId,
    name: input.name.trim(),
    token_hash: minted.hash,
    hint: minted.hint,
    created_at: iso(now),
    expires_at: expiresAt,
    last_used_at: null,
    // A break-glass session's password version: a new password ends the PAT with the session (ADR 0047).
    credential_version: principal.session?.credentialVersion ?? null,
  };
  await db.insertInto('pats').values(row).execute();
  await ctx.audit.act(
    principal,
    ip,
    'pat.create',
    { type: 'pat', id: row.id, name: row.name },
    { name: row.name, expiresAt },
  );
  return { ...view(row), token: minted.token };
}

export async function revokePat(ctx: Deps, principal: Principal, id: string, ip: string) {
  const revoked = await ctx.database.db
    .deleteFrom('pats')
    .where('id', '=', id)
    .where('user_id', '=', principal.user.id)
    .where('org_id', '=', principal.orgId)
    .returning('name')
    .executeTakeFirst();
  if (!revoked) throw notFound(`token ${id} not found`);
  await ctx.audit.act(principal, ip, 'pat.revoke', { type: 'pat', id, name: revoked.name });
}
