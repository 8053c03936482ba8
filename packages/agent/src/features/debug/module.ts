import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { debugRoutes } from './routes.ts';

const needs = ['cluster', 'sessions', 'timeline'] as const;
/** What the debug feature reads of the agent. */
export type DebugContext = ContextOf<typeof needs>;

export const debugModule = defineAgentModule({
  name: 'debug',
  needs,
  // Cloud mode removes every debug route (docs/architecture.md §5): they answer 404, directly and through the tunnel.
  enabled: ({ cloud }) => !cloud,
  register: routesOnly(debugRoutes),
});
