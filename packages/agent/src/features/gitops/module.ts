import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { gitopsTools } from './mcp-tools.ts';
import { gitopsRoutes } from './routes.ts';

const needs = ['access', 'cluster', 'config', 'log', 'sessions', 'timeline'] as const;
/** What the gitops feature reads of the agent. */
export type GitopsContext = ContextOf<typeof needs>;

export const gitopsModule = defineAgentModule({
  name: 'gitops',
  needs,
  register: routesOnly(gitopsRoutes),
  tools: gitopsTools,
});
