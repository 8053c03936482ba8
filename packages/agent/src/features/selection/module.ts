import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { selectionTools } from './mcp-tools.ts';
import { selectionRoutes } from './routes.ts';

const needs = ['access', 'cluster', 'config'] as const;
/** What the selection impact reads of the agent. */
export type SelectionContext = ContextOf<typeof needs>;

/** Which objects gain or lose pods through a label or selector edit, before it is made (docs/adr/0124). */
export const selectionModule = defineAgentModule({
  name: 'selection',
  needs,
  register: routesOnly(selectionRoutes),
  tools: selectionTools,
});
