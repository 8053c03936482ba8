import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { agentUpdateRoutes } from './routes.ts';

const needs = ['access', 'cloud', 'cluster', 'config', 'log', 'timeline'] as const;
/** What the agent-update feature reads of the agent. */
export type AgentUpdateContext = ContextOf<typeof needs>;

export const agentUpdateModule = defineAgentModule({
  name: 'agent-update',
  needs,
  register: routesOnly(agentUpdateRoutes),
});
