import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { metricsTools } from './mcp-tools.ts';
import { metricsRoutes } from './routes.ts';

const needs = ['access', 'cluster', 'config', 'metrics'] as const;
/** What the metrics feature reads of the agent. */
export type MetricsContext = ContextOf<typeof needs>;

export const metricsModule = defineAgentModule({
  name: 'metrics',
  needs,
  register: routesOnly(metricsRoutes),
  tools: metricsTools,
});
