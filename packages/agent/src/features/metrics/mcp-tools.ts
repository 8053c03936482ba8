import { badRequest } from '@binnacle/common/server';
import { z } from 'zod';
import { limit, namespace } from '../../scope/mcp/args.ts';
import { toolsOf } from '../../scope/mcp/tool.ts';
import type { MetricsContext } from './module.ts';
import { topNodes, topPods } from './service.ts';
import { topWorkloads } from './top-workloads.ts';

const tool = toolsOf<MetricsContext>();

/** The metrics' tool: who uses the most CPU or memory now. */
export const metricsTools = [
  tool({
    name: 'top_resources',
    title: 'Top CPU and memory users',
    description:
      'The pods, workloads (their pods summed) or nodes using the most CPU or memory now, from metrics-server, beside their requests and limits (nodes: allocatable). Answers available: false with the reason when metrics-server is not serving.',
    input: {
      kind: z.enum(['pods', 'workloads', 'nodes']).default('pods'),
      namespace: namespace.describe('a namespace (pods and workloads); all you may see when absent'),
      sort: z.enum(['cpu', 'memory']).default('cpu'),
      limit: limit(20, 100),
    },
    run(args, { ctx, caller }) {
      const query = { namespace: args.namespace, sort: args.sort, limit: args.limit };
      if (args.kind === 'pods') return topPods(ctx, caller, query);
      if (args.kind === 'workloads') return topWorkloads(ctx, caller, query);
      if (args.namespace) throw badRequest('namespace does not apply to nodes');
      return topNodes(ctx, caller, query);
    },
  }),
];
