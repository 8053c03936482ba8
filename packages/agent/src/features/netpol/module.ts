import { type ContextOf, defineAgentModule, type SharedServices } from '../../module.ts';
import { netpolTools } from './mcp-tools.ts';
import { networkPolicyRoutes } from './routes.ts';

const needs = ['access', 'cluster'] as const;
/** What the netpol feature reads of the agent. */
export type NetpolContext = ContextOf<typeof needs>;
/** The services it takes from other features: the caller's observed traffic (ADR 0103). */
export type NetpolUses = Pick<SharedServices, 'trafficPairs'>;

export const netpolModule = defineAgentModule({
  name: 'netpol',
  needs,
  uses: ['trafficPairs'],
  register(app, ctx, { trafficPairs }) {
    networkPolicyRoutes(app, ctx, trafficPairs);
  },
  tools: netpolTools,
});
