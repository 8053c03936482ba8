import { type ContextOf, defineAgentModule } from '../../module.ts';
import { topologyTools } from './mcp-tools.ts';
import { topologyRoutes } from './routes.ts';

const needs = [
  'access',
  'audit',
  'cluster',
  'config',
  'configFile',
  'history',
  'settingsFile',
  'topology',
] as const;
/** What the topology feature reads of the agent. */
export type TopologyContext = ContextOf<typeof needs>;

export const topologyModule = defineAgentModule({
  name: 'topology',
  needs,
  uses: ['trafficPairs'],
  register(app, ctx, { trafficPairs }) {
    topologyRoutes(app, ctx, trafficPairs);
  },
  tools: topologyTools,
});
