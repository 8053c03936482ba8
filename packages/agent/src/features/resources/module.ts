import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { resourceTools } from './mcp-tools.ts';
import { resourceRoutes } from './routes.ts';

const needs = ['access', 'cluster', 'config', 'history', 'log', 'timeline'] as const;
/** What the resources feature reads of the agent. */
export type ResourcesContext = ContextOf<typeof needs>;

export const resourcesModule = defineAgentModule({
  name: 'resources',
  needs,
  register: routesOnly(resourceRoutes),
  tools: resourceTools,
});
