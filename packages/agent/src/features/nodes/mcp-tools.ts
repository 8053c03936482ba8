import { z } from 'zod';
import { type ActionOutcome, performAction } from '../../scope/actions.ts';
import { name } from '../../scope/mcp/args.ts';
import { toolsOf } from '../../scope/mcp/tool.ts';
import { drainFitOf, fitLimits } from './fit-service.ts';
import type { NodesContext } from './module.ts';
import { drainNode, setSchedulable } from './service.ts';

const tool = toolsOf<NodesContext>();

/**
 * The nodes' tools: `drain_fit` reads (ADR 0123); `manage_node` changes the cluster as the REST routes do: run as the caller, audited and recorded in
 * the timeline with the caller as actor.
 */
export const nodeTools = [
  tool({
    name: 'drain_fit',
    title: 'Would a drain fit?',
    description:
      "Before draining nodes (by name or label selector): where each evicted pod's replacement would run, checked with the scheduler's filters (requests against allocatable, node selectors and required affinity, taints and tolerations, cordons, pod count, required anti-affinity), or why it would stay Pending in the scheduler's own words; which PodDisruptionBudgets block; the pods the drain leaves (DaemonSet, mirror) or refuses; and an order of the nodes in batches that keeps every budget satisfied, or why none exists. Changes nothing.",
    input: {
      nodes: z.array(name).min(1).max(fitLimits.nodes).optional().describe('node names; or label_selector'),
      label_selector: z
        .string()
        .min(1)
        .max(1024)
        .optional()
        .describe('the nodes whose labels match, e.g. pool=blue'),
      ignore_daemon_sets: z.boolean().default(true).describe('as the drain: leave DaemonSet pods'),
      delete_empty_dir_data: z
        .boolean()
        .default(false)
        .describe('as the drain: evict pods with emptyDir volumes'),
      force: z.boolean().default(false).describe('as the drain: evict pods no controller owns'),
    },
    run: (args, { ctx, caller }) =>
      drainFitOf(
        ctx,
        {
          nodes: args.nodes?.join(','),
          labelSelector: args.label_selector,
          ignoreDaemonSets: args.ignore_daemon_sets,
          deleteEmptyDirData: args.delete_empty_dir_data,
          force: args.force,
        },
        caller,
      ),
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
