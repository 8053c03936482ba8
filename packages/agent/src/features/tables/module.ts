import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { tableRoutes } from './routes.ts';

const needs = [
  'access',
  'cluster',
  'config',
  'connection',
  'history',
  'log',
  'metrics',
  'sessions',
  'timeline',
] as const;
/** What the tables feature reads of the agent. */
export type TablesContext = ContextOf<typeof needs>;

export const tablesModule = defineAgentModule({
  name: 'tables',
  needs,
  register: routesOnly(tableRoutes),
});
