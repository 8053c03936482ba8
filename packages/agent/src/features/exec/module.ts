import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { execRoutes } from './routes.ts';

const needs = ['cluster', 'config', 'log', 'mode', 'sessions', 'timeline'] as const;
/** What the exec feature reads of the agent. */
export type ExecContext = ContextOf<typeof needs>;

export const execModule = defineAgentModule({
  name: 'exec',
  needs,
  register: routesOnly(execRoutes),
});
