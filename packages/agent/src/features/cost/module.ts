import { type ContextOf, defineAgentModule } from '../../module.ts';
import { costRoutes } from './routes.ts';

const needs = ['access', 'cluster', 'config'] as const;
/** What the cost feature reads of the agent. */
export type CostContext = ContextOf<typeof needs>;

export const costModule = defineAgentModule({
  name: 'cost',
  needs,
  uses: ['metricsStores'],
  register(app, ctx, { metricsStores }) {
    costRoutes(app, ctx, metricsStores);
  },
});
