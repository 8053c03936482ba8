import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { networkPolicyRoutes } from './routes.ts';

const needs = ['access', 'cluster'] as const;
/** What the netpol feature reads of the agent. */
export type NetpolContext = ContextOf<typeof needs>;

export const netpolModule = defineAgentModule({
  name: 'netpol',
  needs,
  register: routesOnly(networkPolicyRoutes),
});
