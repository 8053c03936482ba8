import type { Principal } from './principal.ts';

/** The service word in the subjects clusters see (docs/architecture.md §1). */
const service = 'binnacle';

/**
 * Who the caller is inside a cluster (docs/architecture.md §6.3): user `binnacle:user:<email>`, group
 * `binnacle:role:<hub role>` and, for OIDC sessions only (never PATs), `binnacle:idp:<group>` per IdP group.
 */
export function clusterIdentity(principal: Principal): { user: string; groups: string[] } {
  const idpGroups = principal.via === 'pat' ? [] : principal.groups;
  return {
    user: `${service}:user:${principal.user.email}`,
    groups: [`${service}:role:${principal.role}`, ...idpGroups.map((group) => `${service}:idp:${group}`)],
  };
}
