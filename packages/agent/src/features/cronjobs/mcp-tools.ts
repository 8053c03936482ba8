import { z } from 'zod';
import { type ActionOutcome, performAction } from '../../scope/actions.ts';
import { name, requiredNamespace as namespace } from '../../scope/mcp/args.ts';
import { toolsOf } from '../../scope/mcp/tool.ts';
import type { CronjobsContext } from './module.ts';
import { setCronJobSuspended, triggerCronJob } from './service.ts';

const tool = toolsOf<CronjobsContext>();

/**
 * The CronJobs' tool, which changes the cluster as the REST routes do: run as the caller, audited and recorded in
 * the timeline with the caller as actor.
 */
export const cronjobTools = [
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
];
