import { z } from 'zod';
import { callerView } from '../../http/caller-view.ts';
import { kubeEvents } from '../../scope/events.ts';
import { limit, namespace, scope } from '../../scope/mcp/args.ts';
import { eventRow } from '../../scope/mcp/rows.ts';
import { toolsOf } from '../../scope/mcp/tool.ts';
import { redactText } from '../../scope/redact.ts';
import type { TimelineContext } from './module.ts';
import { changes } from './service.ts';

const tool = toolsOf<TimelineContext>();

/** A time or a duration back from now, as the timeline takes it. */
const since = z
  .string()
  .max(64)
  .optional()
  .describe('RFC 3339 time or a duration back from now (90s, 15m, 2h)');

/** The timeline's tools: recent Kubernetes events, and what changed. */
export const timelineTools = [
  tool({
    name: 'get_events',
    title: 'Kubernetes events',
    description: 'Recent Kubernetes events, newest first; Warning ones are usually what matters.',
    input: {
      namespace,
      type: z.enum(['Normal', 'Warning']).optional(),
      kind: z.string().max(253).optional().describe('of the involved object'),
      name: z.string().max(253).optional().describe('of the involved object'),
      limit: limit(20, 100),
    },
    async run(args, { ctx, caller }) {
      const view = await callerView(ctx, caller, scope(args.namespace));
      const events = kubeEvents(ctx, { ...args, namespaces: view.namespaces });
      return { total: events.total, events: events.items.map(eventRow) };
    },
  }),
  tool({
    name: 'get_changes',
    title: 'Change timeline',
    description:
      'What changed recently: objects created, updated (with the fields that changed) and deleted, and actions taken through Binnacle, newest first.',
    input: {
      namespace,
      kind: z.string().max(253).optional().describe('a Kind, e.g. Deployment'),
      name: z.string().max(253).optional(),
      since: since.default('1h'),
      limit: limit(20, 50),
    },
    async run(args, { ctx, caller }) {
      const view = await callerView(ctx, caller, scope(args.namespace));
      const page = await changes(ctx.timeline, {
        ...view,
        kinds: args.kind ? [args.kind] : undefined,
        name: args.name,
        since: args.since,
        limit: args.limit,
      });
      return page.events.map((e) => ({
        time: e.timestamp,
        what: e.source === 'action' ? 'action' : e.eventType,
        object: `${e.kind} ${e.namespace ? `${e.namespace}/` : ''}${e.name}`,
        ...(e.health ? { health: e.health } : {}),
        ...(e.reason ? { reason: e.reason } : {}),
        ...(e.message ? { message: redactText(e.message) } : {}),
        ...(e.diff ? { diff: JSON.parse(redactText(JSON.stringify(e.diff))) as unknown } : {}),
        ...(e.actor ? { actor: e.actor } : {}),
      }));
    },
  }),
];
