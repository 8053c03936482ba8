import { z } from 'zod';
import { type ActionOutcome, performAction } from '../../scope/actions.ts';
import { name } from '../../scope/mcp/args.ts';
import { toolsOf } from '../../scope/mcp/tool.ts';
import type { NodesContext } from './module.ts';
import { drainNode, setSchedulable } from './service.ts';

const tool = toolsOf<NodesContext>();

/**
 * The nodes' tool, which changes the cluster as the REST routes do: run as the caller, audited and recorded in
 * the timeline with the caller as actor.
 */
export const nodeTools = [
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
