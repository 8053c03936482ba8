import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { logTools } from './mcp-tools.ts';
import { logRoutes } from './routes.ts';

const needs = ['access', 'cluster', 'config', 'sessions'] as const;
/** What the logs feature reads of the agent. */
export type LogsContext = ContextOf<typeof needs>;

export const logsModule = defineAgentModule({
  name: 'logs',
  needs,
  // diagnose shows the object as the ai feature's views do.
  uses: ['objectViews'],
  register: routesOnly(logRoutes),
  tools: logTools,
});
