import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { aiRoutes } from './routes.ts';

const needs = ['access', 'cluster', 'config', 'log', 'timeline'] as const;
/** What the ai feature reads of the agent. */
export type AiContext = ContextOf<typeof needs>;

export const aiModule = defineAgentModule({
  name: 'ai',
  needs,
  register: routesOnly(aiRoutes),
});
