import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { workloadTools } from './mcp-tools.ts';
import { workloadRoutes } from './routes.ts';

const needs = ['cluster', 'log', 'timeline'] as const;
/** What the workloads feature reads of the agent. */
export type WorkloadsContext = ContextOf<typeof needs>;

export const workloadsModule = defineAgentModule({
  name: 'workloads',
  needs,
  register: routesOnly(workloadRoutes),
  tools: workloadTools,
});
