import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { sessionRoutes } from './routes.ts';

const needs = ['sessions'] as const;
/** What the sessions feature reads of the agent. */
export type SessionsContext = ContextOf<typeof needs>;

export const sessionsModule = defineAgentModule({
  name: 'sessions',
  needs,
  register: routesOnly(sessionRoutes),
});
