import { z } from 'zod';
import { callerView } from '../../http/caller-view.ts';
import { requestedMoment } from '../../http/query.ts';
import { limit, namespace, scope } from '../../scope/mcp/args.ts';
import { toolsOf } from '../../scope/mcp/tool.ts';
import { redactText } from '../../scope/redact.ts';
import type { TimeTravelContext } from './module.ts';
import { changesBetween } from './service.ts';

const tool = toolsOf<TimeTravelContext>();
const moment = (what: string) =>
  z.string().min(1).max(64).describe(`${what}: RFC 3339 time, or a duration back from now (90s, 15m, 2h)`);

/** Time travel for assistants: what changed between two moments (the objects then: get_cluster_at). */
export const timeTravelTools = [
  tool({
    name: 'what_changed',
    title: 'What changed between two moments',
    description:
      "Objects created, deleted and modified between two moments, by kind and namespace, each modified one with its changed fields (values redacted). Both moments must be inside the agent's kept window.",
    input: {
      from: moment('the earlier moment'),
      to: moment('the later moment').optional(),
      namespace,
      limit: limit(100, 500),
    },
    async run(args, { ctx, caller, now }) {
      const from = requestedMoment(args.from, 'from', now) ?? now;
      const to = requestedMoment(args.to, 'to', now) ?? now;
      const view = await callerView(ctx, caller, scope(args.namespace));
      return JSON.parse(
        redactText(JSON.stringify(changesBetween(ctx, view, { from, to }, args.limit))),
      ) as unknown;
    },
  }),
];
