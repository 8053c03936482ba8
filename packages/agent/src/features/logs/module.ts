import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { logRoutes } from './routes.ts';

const needs = ['cluster', 'sessions'] as const;
/** What the logs feature reads of the agent. */
export type LogsContext = ContextOf<typeof needs>;

export const logsModule = defineAgentModule({
  name: 'logs',
  needs,
  register: routesOnly(logRoutes),
});
