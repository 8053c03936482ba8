import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { cronjobTools } from './mcp-tools.ts';
import { cronJobRoutes } from './routes.ts';

const needs = ['cluster', 'log', 'timeline'] as const;
/** What the cronjobs feature reads of the agent. */
export type CronjobsContext = ContextOf<typeof needs>;

export const cronjobsModule = defineAgentModule({
  name: 'cronjobs',
  needs,
  register: routesOnly(cronJobRoutes),
  tools: cronjobTools,
});
