/**
 * The hub's roles in an organization (docs/api/roles.md): owner, member and viewer, each allowed what the one
 * below it is. Stored on memberships, invitations and sessions, named by configuration (`oidcDefaultRole`)
 * and checked by the access hook, so they sit at the bottom of the layers.
 */
export type Role = 'owner' | 'member' | 'viewer';
export const roles: readonly Role[] = ['owner', 'member', 'viewer'];

const rank: Record<Role, number> = { viewer: 0, member: 1, owner: 2 };
export const atLeast = (role: Role, min: Role) => rank[role] >= rank[min];
