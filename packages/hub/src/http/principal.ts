import type { Role } from '../context.ts';
import { type Db, roleIn, type UserRow } from '../db/directory.ts';
import type { SessionMethod } from '../features/sessions/store.ts';

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
  session?: { idHash: string; method: SessionMethod; expiresAt: Date; idToken: string | null };
  patId?: string;
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
 * there — except a PAT, which is pinned to its organization. Undefined means "not theirs" (answered 404).
 */
export async function roleInOrg(db: Db, principal: Principal, orgId: string): Promise<Role | undefined> {
  if (orgId === principal.orgId) return principal.role;
  return principal.via === 'pat' ? undefined : roleIn(db, orgId, principal.user.id);
}

/** The caller acting in another organization (its role there), or undefined when it is not theirs. */
export async function inOrg(db: Db, principal: Principal, orgId: string): Promise<Principal | undefined> {
  const role = await roleInOrg(db, principal, orgId);
  return role && { ...principal, orgId, role };
}
