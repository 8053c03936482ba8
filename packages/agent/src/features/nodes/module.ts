import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { nodeTools } from './mcp-tools.ts';
import { nodeRoutes } from './routes.ts';

const needs = ['access', 'cluster', 'config', 'log', 'timeline'] as const;
/** What the nodes feature reads of the agent. */
export type NodesContext = ContextOf<typeof needs>;

export const nodesModule = defineAgentModule({
  name: 'nodes',
  needs,
  register: routesOnly(nodeRoutes),
  tools: nodeTools,
});
