import { type ContextOf, defineAgentModule } from '../../module.ts';
import { metricsdbRoutes, metricsStores } from './routes.ts';

const needs = ['access', 'cluster', 'config', 'connection', 'log', 'mode', 'sessions'] as const;
/** What the metricsdb feature reads of the agent. */
export type MetricsdbContext = ContextOf<typeof needs>;

export const metricsdbModule = defineAgentModule({
  name: 'metricsdb',
  needs,
  uses: ['metricsStores'],
  provides: ['metricsStores'],
  // Built before any register: traffic and cost, registered earlier, read the same stores.
  provide: (app, ctx) => ({ metricsStores: metricsStores(app, ctx) }),
  register(app, ctx, { metricsStores: stores }) {
    metricsdbRoutes(app, ctx, stores);
  },
});
