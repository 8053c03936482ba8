import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { packageTools } from './mcp-tools.ts';
import { packagesRoutes } from './routes.ts';

const needs = ['access', 'cluster', 'config'] as const;
/** What the packages feature reads of the agent. */
export type PackagesContext = ContextOf<typeof needs>;

export const packagesModule = defineAgentModule({
  name: 'packages',
  needs,
  register: routesOnly(packagesRoutes),
  tools: packageTools,
});
