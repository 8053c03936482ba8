import { z } from 'zod';
import { requestedMoment } from '../../http/query.ts';
import { group, kind, name, requiredNamespace } from '../../scope/mcp/args.ts';
import { toolsOf } from '../../scope/mcp/tool.ts';
import type { CompareContext } from './module.ts';
import { compareInCluster } from './service.ts';

const tool = toolsOf<CompareContext>();
const moment = z
  .string()
  .max(64)
  .optional()
  .describe('read this side as it was then: RFC 3339 or a duration back from now (90m)');

/** Comparing two objects of a kind. */
export const compareTools = [
  tool({
    name: 'compare_objects',
    title: 'Compare two objects',
    description:
      'Two objects of one kind field by field — e.g. the checkout Deployment in staging and in shop, or one object now and as it was 2h ago — with list elements matched by name. Folded apart: status, fields the server generates (uid, resourceVersion, hashes, cluster IPs) and defaults one side lacks. Secret values are never returned, only whether they differ. Use _ as namespace for a cluster-scoped kind.',
    input: {
      kind,
      group,
      namespace: requiredNamespace.describe('the first object’s namespace'),
      name,
      other_namespace: requiredNamespace
        .optional()
        .describe('the second object’s namespace (default: the same)'),
      other_name: name.optional().describe('the second object’s name (default: the same)'),
      at: moment,
      other_at: moment,
    },
    run: (args, { ctx, caller, now }) =>
      compareInCluster(ctx, caller, {
        kind: args.kind,
        group: args.group,
        left: { ref: `${args.namespace}/${args.name}`, at: requestedMoment(args.at, 'at', now) },
        right: {
          ref: `${args.other_namespace ?? args.namespace}/${args.other_name ?? args.name}`,
          at: requestedMoment(args.other_at, 'other_at', now),
        },
      }),
  }),
];
