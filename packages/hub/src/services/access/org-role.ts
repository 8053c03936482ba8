import type { HubDatabase } from '../../db/database.ts';
import { roleIn } from '../../db/directory.ts';
import type { Principal } from '../../security/principal.ts';
import type { Role } from '../../security/roles.ts';
import type { AccessCache } from './access-cache.ts';

/**
 * The caller's role in an organization: their own for the one they act in; for another, their membership
 * there (cached with the rest of a request's access, ADR 0043) — except a PAT, which is pinned to its
 * organization. Undefined means "not theirs" (answered 404).
 */
export async function roleInOrg(
  ctx: { database: HubDatabase; accessCache: AccessCache },
  principal: Principal,
  orgId: string,
): Promise<Role | undefined> {
  if (orgId === principal.orgId) return principal.role;
  if (principal.via === 'pat') return undefined;
  const membership = await ctx.accessCache.remember(`role ${principal.user.id} ${orgId}`, async () => {
    const role = await roleIn(ctx.database.db, orgId, principal.user.id);
    return role && { role };
  });
  return membership?.role;
}

/** The caller acting in another organization (its role there), or undefined when it is not theirs. */
export async function inOrg(
  ctx: { database: HubDatabase; accessCache: AccessCache },
  principal: Principal,
  orgId: string,
): Promise<Principal | undefined> {
  if (orgId === principal.orgId) return principal;
  const role = await roleInOrg(ctx, principal, orgId);
  return role && { ...principal, orgId, role };
}
