import { notFound } from '@binnacle/common/server';
import type { HubContext } from '../../context.ts';
import { countOf } from '../../db/count.ts';
import { addMember, createOrg, membershipsOf } from '../../db/directory.ts';
import { iso } from '../../security/clock.ts';
import type { Principal } from '../../security/principal.ts';

type Deps = Pick<HubContext, 'audit' | 'clock' | 'database'>;

async function describe(ctx: Deps, orgId: string, role: Principal['role']) {
  const { db } = ctx.database;
  const org = await db.selectFrom('orgs').selectAll().where('id', '=', orgId).executeTakeFirst();
  if (!org) throw notFound(`organization ${orgId} not found`);
  const count = await countOf(db.selectFrom('memberships').where('org_id', '=', orgId));
  return { id: org.id, name: org.name, createdAt: org.created_at, role, memberCount: count };
}

export const getOrg = (ctx: Deps, principal: Principal) => describe(ctx, principal.orgId, principal.role);

/** The organizations the caller can act in: all memberships for a session, the pinned one for a PAT. */
export async function listOrgs(ctx: Deps, principal: Principal) {
  const memberships = await membershipsOf(ctx.database.db, principal.user.id);
  const visible = principal.via === 'pat' ? memberships.filter((m) => m.id === principal.orgId) : memberships;
  return Promise.all(visible.map((m) => describe(ctx, m.id, m.role)));
}

export async function createOrganization(ctx: Deps, principal: Principal, name: string, ip: string) {
  const at = iso(ctx.clock.now());
  const orgId = await ctx.database.db.transaction().execute(async (tx) => {
    const id = await createOrg(tx, name.trim(), at);
    await addMember(tx, id, principal.user.id, 'owner', at);
    return id;
  });
  await ctx.audit.record({
    orgId,
    actor: principal,
    action: 'org.create',
    target: { type: 'org', id: orgId, name },
    detail: { name },
    ip,
  });
  return describe(ctx, orgId, 'owner');
}

export async function renameOrg(ctx: Deps, principal: Principal, name: string, ip: string) {
  const before = await getOrg(ctx, principal);
  await ctx.database.db
    .updateTable('orgs')
    .set({ name: name.trim() })
    .where('id', '=', principal.orgId)
    .execute();
  await ctx.audit.act(
    principal,
    ip,
    'org.update',
    { type: 'org', id: principal.orgId, name: name.trim() },
    { from: before.name, to: name.trim() },
  );
  return getOrg(ctx, principal);
}
