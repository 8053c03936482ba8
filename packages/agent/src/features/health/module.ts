import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { healthRoutes } from './routes.ts';

const needs = [
  'access',
  'auth',
  'cloud',
  'cluster',
  'config',
  'mode',
  'startedAt',
  'timeline',
  'version',
] as const;
/** What the health feature reads of the agent. */
export type HealthContext = ContextOf<typeof needs>;

export const healthModule = defineAgentModule({
  name: 'health',
  needs,
  register: routesOnly(healthRoutes),
});
