import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { repohostRoutes } from './routes.ts';

const needs = ['config'] as const;
/** What the repohost feature reads of the agent. */
export type RepohostContext = ContextOf<typeof needs>;

export const repohostModule = defineAgentModule({
  name: 'repohost',
  needs,
  register: routesOnly(repohostRoutes),
});
