import { AppError } from '@binnacle/common/server';
import type { Impersonation } from '../kube/client.ts';
import type { CallerChecks } from './caller.ts';

/** The group the hub forwards for a person's role in the organization (docs/architecture.md §6.3). */
const ownerGroup = 'binnacle:role:owner';

/**
 * Cloud mode: operations on the agent itself rather than on the cluster (its version) are for the organization's
 * owners, whatever the cluster's RBAC grants the caller. Fails closed: a request without a forwarded identity,
 * or one whose role group is not owner, gets 403 `cloud_role_insufficient`. Outside cloud mode there are no hub
 * roles and this checks nothing.
 */
export function requireHubOwner(ctx: Pick<CallerChecks, 'cloud'>, caller: Impersonation | undefined): void {
  if (!ctx.cloud || caller?.groups.includes(ownerGroup)) return;
  const role = caller?.groups
    .find((group) => group.startsWith('binnacle:role:'))
    ?.slice('binnacle:role:'.length);
  throw new AppError(
    'cloud_role_insufficient',
    `only an owner of the organization may do this; ${role ? `your role is ${role}` : 'no hub role was forwarded'}`,
  );
}
