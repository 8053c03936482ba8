import { badRequest } from '@binnacle/common/server';
import { z } from 'zod';
import { type ActionOutcome, performAction } from '../../http/actions.ts';
import { setCronJobSuspended, triggerCronJob } from '../cronjobs/service.ts';
import { drainNode, setSchedulable } from '../nodes/service.ts';
import { workloadResource } from '../workloads/kinds.ts';
import { restartWorkload, rollbackWorkload, scaleWorkload } from '../workloads/service.ts';
import { type Tool, tool } from './tool.ts';

const name = z.string().min(1).max(253);
const namespace = z.string().min(1).max(63);

/**
 * The tools that change the cluster: the same operations as the REST routes, run as the caller, audited and
 * recorded in the timeline with the caller as actor.
 */
export const writeTools: Tool[] = [
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
  tool({
    name: 'manage_cronjob',
    title: 'Trigger, suspend or resume a CronJob',
    description: 'Runs a CronJob now (a Job from its template), or suspends or resumes its schedule.',
    input: { action: z.enum(['trigger', 'suspend', 'resume']), namespace, name },
    writes: true,
    run(args, { ctx, caller }) {
      const target = { kind: 'CronJob', group: 'batch', namespace: args.namespace, name: args.name };
      return performAction<ActionOutcome>(ctx, caller, args.action, target, () =>
        args.action === 'trigger'
          ? triggerCronJob(ctx, args.namespace, args.name, caller)
          : setCronJobSuspended(ctx, args.namespace, args.name, args.action === 'suspend', caller),
      );
    },
  }),
  tool({
    name: 'manage_node',
    title: 'Cordon, uncordon or drain a node',
    description:
      'Cordons or uncordons a node, or drains it as kubectl does (evictions honour PodDisruptionBudgets; DaemonSet pods stay).',
    input: {
      action: z.enum(['cordon', 'uncordon', 'drain']),
      name,
      delete_empty_dir_data: z.boolean().default(true).describe('drain: evict pods with emptyDir volumes'),
      force: z.boolean().default(false).describe('drain: also pods no controller owns'),
      timeout: z.number().int().min(1).max(600).default(60).describe('drain: seconds to wait'),
    },
    writes: true,
    run(args, { ctx, caller }) {
      const target = { kind: 'Node', group: '', name: args.name };
      return performAction<ActionOutcome>(ctx, caller, args.action, target, () =>
        args.action === 'drain'
          ? drainNode(
              ctx,
              args.name,
              {
                deleteEmptyDirData: args.delete_empty_dir_data,
                force: args.force,
                timeout: `${args.timeout}s`,
              },
              AbortSignal.timeout((args.timeout + 30) * 1000),
              caller,
            )
          : setSchedulable(ctx, args.name, args.action === 'uncordon', caller),
      );
    },
  }),
];
