import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { timeTravelTools } from './mcp-tools.ts';
import { timeTravelRoutes } from './routes.ts';

const needs = ['access', 'cluster', 'history'] as const;
/** What time travel reads of the agent: the objects' past states and the caller's view. */
export type TimeTravelContext = ContextOf<typeof needs>;

export const timeTravelModule = defineAgentModule({
  name: 'timetravel',
  needs,
  register: routesOnly(timeTravelRoutes),
  tools: timeTravelTools,
});
