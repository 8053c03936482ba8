import { badRequest } from '@binnacle/common/server';
import { z } from 'zod';
import { type ActionOutcome, performAction } from '../../scope/actions.ts';
import { name, requiredNamespace as namespace } from '../../scope/mcp/args.ts';
import { toolsOf } from '../../scope/mcp/tool.ts';
import { workloadResource } from './kinds.ts';
import type { WorkloadsContext } from './module.ts';
import { restartWorkload, rollbackWorkload, scaleWorkload } from './service.ts';

const tool = toolsOf<WorkloadsContext>();

/**
 * The workloads' tool, which changes the cluster as the REST routes do: run as the caller, audited and recorded
 * in the timeline with the caller as actor.
 */
export const workloadTools = [
  tool({
    name: 'manage_workload',
    title: 'Restart, scale or roll back a workload',
    description:
      'Restarts (a new rollout), scales (replicas) or rolls back (to a revision; the previous one when absent) a Deployment, StatefulSet, DaemonSet or Argo Rollout.',
    input: {
      action: z.enum(['restart', 'scale', 'rollback']),
      kind: z.string().min(1).max(253).describe('deployment, statefulset, daemonset or rollout'),
      namespace,
      name,
      replicas: z.number().int().min(0).max(10_000).optional().describe('for scale'),
      revision: z.number().int().min(1).optional().describe('for rollback'),
    },
    writes: true,
    run(args, { ctx, caller }) {
      const w = { resource: workloadResource(ctx, args.kind), namespace: args.namespace, name: args.name };
      if (args.action === 'scale' && args.replicas === undefined)
        throw badRequest('replicas is required to scale');
      const target = { kind: w.resource.kind, group: w.resource.group, namespace: w.namespace, name: w.name };
      return performAction<ActionOutcome>(ctx, caller, args.action, target, () => {
        if (args.action === 'restart') return restartWorkload(ctx, w, caller);
        if (args.action === 'scale') return scaleWorkload(ctx, w, args.replicas as number, caller);
        return rollbackWorkload(ctx, w, args.revision, caller);
      });
    },
  }),
];
