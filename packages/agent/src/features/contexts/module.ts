import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { contextRoutes } from './routes.ts';

const needs = ['cluster', 'connection', 'log'] as const;
/** What the contexts feature reads of the agent. */
export type ContextsContext = ContextOf<typeof needs>;

export const contextsModule = defineAgentModule({
  name: 'contexts',
  needs,
  register: routesOnly(contextRoutes),
});
