import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { aiTools } from './mcp-tools.ts';
import { aiRoutes } from './routes.ts';
import { aiGet } from './service.ts';
import { view } from './views.ts';

const needs = ['access', 'cluster', 'config', 'history', 'log', 'timeline'] as const;
/** What the ai feature reads of the agent. */
export type AiContext = ContextOf<typeof needs>;

export const aiModule = defineAgentModule({
  name: 'ai',
  needs,
  provides: ['objectViews'],
  provide: (_app, ctx) => ({
    objectViews: { get: (caller, query, now) => aiGet(ctx, caller, query, now), view },
  }),
  register: routesOnly(aiRoutes),
  tools: aiTools,
});
