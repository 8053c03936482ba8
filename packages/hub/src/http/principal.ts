import type { HubContext, Role } from '../context.ts';
import { roleIn, type UserRow } from '../db/directory.ts';
import type { SessionMethod } from '../services/sessions/store.ts';

/** Who is calling, in which organization, with which role, and by which credential. */
export interface Principal {
  user: UserRow;
  /** The session's current organization, or the organization a PAT is pinned to. */
  orgId: string;
  /** The role in `orgId`, read at every request (a demotion applies at once). */
  role: Role;
  /** session: the hub's cookie; hosted: the hosted IdP's cookie; pat; oauth: an IdP access token (AI agents). */
  via: 'session' | 'hosted' | 'pat' | 'oauth';
  /** Forwardable IdP groups: OIDC sessions only, never PATs. */
  groups: string[];
  session?: {
    idHash: string;
    method: SessionMethod;
    expiresAt: Date;
    idToken: string | null;
    /** Break-glass sessions: the password version, which a PAT minted in the session inherits. */
    credentialVersion: string | null;
  };
  patId?: string;
  /** The PAT's name, for the audit log. */
  patName?: string;
  /** When a token credential ends by itself (a PAT's expiry, an IdP token's `exp`); sessions have their own rules. */
  expiresAt?: Date;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
  interface FastifyContextConfig {
    access?: Access;
  }
}

/**
 * What a route requires: `public`, or a minimum role in the organization concerned; `session` routes also
 * refuse PATs (minting PATs, switching organization, signing out need a person at a browser).
 */
export interface Access {
  minRole: Role | 'public';
  session?: boolean;
}

const rank: Record<Role, number> = { viewer: 0, member: 1, owner: 2 };
export const atLeast = (role: Role, min: Role) => rank[role] >= rank[min];

/** The route option that declares access; every hub route passes one (a static check enforces it). */
export const access = (minRole: Access['minRole'], options: { session?: boolean } = {}) => ({
  access: { minRole, session: options.session ?? false } satisfies Access,
});

/** The principal of a request that passed the access hook (routes that are not public). */
export function principalOf(request: { principal?: Principal }): Principal {
  if (!request.principal) throw new Error('route without access control reached principalOf');
  return request.principal;
}

/** Credentials a browser sends by itself (cookies): they need CSRF protection, and they are "a person at a browser". */
export const cookieBased = (principal: Pick<Principal, 'via'>) =>
  principal.via === 'session' || principal.via === 'hosted';

/**
 * The caller's role in an organization: their own for the one they act in; for another, their membership
 * there (cached with the rest of a request's access, ADR 0043) — except a PAT, which is pinned to its
 * organization. Undefined means "not theirs" (answered 404).
 */
export async function roleInOrg(
  ctx: Pick<HubContext, 'database' | 'accessCache'>,
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
  ctx: Pick<HubContext, 'database' | 'accessCache'>,
  principal: Principal,
  orgId: string,
): Promise<Principal | undefined> {
  if (orgId === principal.orgId) return principal;
  const role = await roleInOrg(ctx, principal, orgId);
  return role && { ...principal, orgId, role };
}
