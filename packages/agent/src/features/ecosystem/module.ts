import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { ecosystemTools } from './mcp-tools.ts';
import { ecosystemRoutes } from './routes.ts';

const needs = ['cluster', 'log', 'timeline'] as const;
/** What the ecosystem actions read of the agent. */
export type EcosystemContext = ContextOf<typeof needs>;

export const ecosystemModule = defineAgentModule({
  name: 'ecosystem',
  needs,
  register: routesOnly(ecosystemRoutes),
  tools: ecosystemTools,
});
