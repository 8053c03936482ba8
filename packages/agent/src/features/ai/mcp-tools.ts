import { z } from 'zod';
import { callerView } from '../../http/caller-view.ts';
import { requestedMoment } from '../../http/query.ts';
import { kubeEvents } from '../../scope/events.ts';
import { group, kind, limit, name, namespace, scope } from '../../scope/mcp/args.ts';
import { eventRow } from '../../scope/mcp/rows.ts';
import { type ToolCall, toolsOf } from '../../scope/mcp/tool.ts';
import type { AiContext } from './module.ts';
import { aiGet, aiList } from './service.ts';

const tool = toolsOf<AiContext>();

/** What list_resources and get_cluster_at take alike. */
const listInput = {
  kind,
  namespace,
  group,
  label_selector: z.string().max(1024).optional().describe('e.g. app=web,tier!=cache'),
  verbosity: z.enum(['compact', 'summary', 'detail']).default('compact'),
  limit: limit(50, 200),
};
type ListArgs = z.infer<z.ZodObject<typeof listInput>>;

/** The list either tool answers: now, or (`at`) as the objects were at a past moment. */
const listed = (args: ListArgs, { ctx, caller, now }: ToolCall & { ctx: AiContext }, at?: string) =>
  aiList(
    ctx,
    caller,
    {
      kind: args.kind,
      group: args.group,
      namespaces: scope(args.namespace),
      labelSelector: args.label_selector,
      verbosity: args.verbosity,
      limit: args.limit,
      at: requestedMoment(at, 'at', now),
    },
    now,
  );

/** The tools that read objects of any kind as an assistant sees them, redacted. */
export const aiTools = [
  tool({
    name: 'list_resources',
    title: 'List resources',
    description:
      'Objects of a kind, redacted (Secret values never appear): compact gives one line each, summary the fields a table shows, detail the whole objects.',
    input: listInput,
    run: (args, run) => listed(args, run),
  }),
  tool({
    name: 'get_cluster_at',
    title: 'Objects as they were',
    description:
      "Objects of a kind as they were at a past moment (time travel), redacted like list_resources: what the cluster looked like before something broke. The moment must be inside the agent's kept window (an error names it).",
    input: {
      at: z.string().min(1).max(64).describe('RFC 3339 time, or a duration back from now (90s, 15m, 2h)'),
      ...listInput,
    },
    run: (args, run) => listed(args, run, args.at),
  }),
  tool({
    name: 'get_resource',
    title: 'Get a resource',
    description:
      'One object, redacted, with its recent events; namespace omitted for a cluster-scoped kind (nodes, namespaces).',
    input: {
      kind,
      name,
      namespace,
      group,
      verbosity: z.enum(['compact', 'summary', 'detail']).default('detail'),
    },
    async run(args, { ctx, caller, now }) {
      const found = await aiGet(
        ctx,
        caller,
        {
          kind: args.kind,
          namespace: args.namespace ?? '_',
          name: args.name,
          group: args.group,
          verbosity: args.verbosity,
        },
        now,
      );
      const resource = ctx.cluster.resolve(args.kind, args.group);
      const view = await callerView(ctx, caller, scope(args.namespace));
      const events = kubeEvents(ctx, {
        namespaces: view.namespaces,
        kind: resource.kind,
        name: args.name,
        limit: 10,
      });
      return { ...found, events: events.items.map(eventRow) };
    },
  }),
];
