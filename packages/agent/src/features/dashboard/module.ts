import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { dashboardTools } from './mcp-tools.ts';
import { dashboardRoutes } from './routes.ts';

const needs = ['access', 'audit', 'cluster', 'config', 'configFile', 'history', 'settingsFile'] as const;
/** What the dashboard feature reads of the agent. */
export type DashboardContext = ContextOf<typeof needs>;

export const dashboardModule = defineAgentModule({
  name: 'dashboard',
  needs,
  register: routesOnly(dashboardRoutes),
  tools: dashboardTools,
});
