import type { HubAnswer } from '../api.ts';

export type Role = HubAnswer<'/api/orgs/{org_id}/members'>['items'][number]['role'];

/** The three roles, most powerful first, with what each may do (docs/api/roles.md). */
export const roles: Role[] = ['owner', 'member', 'viewer'];
export const roleMeaning: Record<Role, string> = {
  owner: 'full admin',
  member: 'read and cluster operations',
  viewer: 'read-only',
};
