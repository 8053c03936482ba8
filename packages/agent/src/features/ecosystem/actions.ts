import type { EcosystemAction } from '@binnacle/common';
import { badRequest } from '@binnacle/common/server';
import type { Impersonation } from '../../kube/client.ts';
import { performAction } from '../../scope/actions.ts';
import type { PostgresBackupOptions } from './changes.ts';
import { actionTarget } from './kinds.ts';
import type { EcosystemContext } from './module.ts';
import {
  backupNow,
  disruptNodeClaim,
  pauseScaling,
  renewCertificate,
  restartPostgresCluster,
  resumeScaling,
} from './service.ts';

/** Where an action is aimed, as the route's path or the tool's arguments name it. */
export interface ActionAddress {
  kind: string;
  /** `_` for a cluster-scoped kind (a NodeClaim). */
  namespace: string;
  name: string;
}

/** What an action may carry besides its address: the dry run, and the few options some actions take. */
export interface ActionOptions extends PostgresBackupOptions {
  dryRun?: boolean;
  /** pause: hold a ScaledObject's target at this many replicas. */
  replicas?: number;
}

/**
 * Runs one ecosystem action as the caller (or the agent's identity), audited and — unless a dry run — recorded on
 * the timeline with its actor (ADR 0072). The route and the MCP tool both come here.
 */
export function runEcosystemAction(
  ctx: EcosystemContext,
  caller: Impersonation | undefined,
  action: EcosystemAction,
  address: ActionAddress,
  options: ActionOptions,
) {
  const t = actionTarget(ctx.cluster.resources(), action, address.kind, address.namespace, address.name);
  const { dryRun = false, replicas, ...backup } = options;
  const stray = [
    ...(replicas !== undefined && action !== 'pause' ? ['replicas'] : []),
    ...(action === 'backup'
      ? []
      : Object.keys(backup).filter((key) => backup[key as keyof typeof backup] !== undefined)),
  ];
  if (stray.length) throw badRequest(`${action} takes no ${stray.join(', ')}`);
  const run = { dryRun, as: caller };
  const work = () => {
    switch (action) {
      case 'renew':
        return renewCertificate(ctx, t, run);
      case 'backup':
        return backupNow(ctx, t, backup, run);
      case 'pause':
        return pauseScaling(ctx, t, replicas, run);
      case 'resume':
        return resumeScaling(ctx, t, run);
      case 'disrupt':
        return disruptNodeClaim(ctx, t, run);
      case 'restart':
        return restartPostgresCluster(ctx, t, run);
    }
  };
  const target = { kind: t.kind.kind, group: t.kind.group, namespace: t.namespace, name: t.name };
  return performAction<Awaited<ReturnType<typeof work>>>(ctx, caller, action, target, work, { dryRun });
}
