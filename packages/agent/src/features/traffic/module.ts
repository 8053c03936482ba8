import { type ContextOf, defineAgentModule } from '../../module.ts';
import { trafficRoutes } from './routes.ts';

const needs = ['access', 'cluster', 'config', 'connection', 'log', 'mode', 'sessions'] as const;
/** What the traffic feature reads of the agent. */
export type TrafficContext = ContextOf<typeof needs>;

export const trafficModule = defineAgentModule({
  name: 'traffic',
  needs,
  uses: ['metricsStores'],
  provides: ['trafficPairs'],
  register: (app, ctx, { metricsStores }) => ({ trafficPairs: trafficRoutes(app, ctx, metricsStores) }),
});
