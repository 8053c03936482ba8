import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { compareTools } from './mcp-tools.ts';
import { compareRoutes } from './routes.ts';

const needs = ['access', 'cluster', 'history'] as const;
/** What the compare feature reads of the agent. */
export type CompareContext = ContextOf<typeof needs>;

/** Two objects of a kind, field by field (docs/compare.md). */
export const compareModule = defineAgentModule({
  name: 'compare',
  needs,
  register: routesOnly(compareRoutes),
  tools: compareTools,
});
