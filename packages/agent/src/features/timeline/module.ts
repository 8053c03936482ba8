import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { timelineTools } from './mcp-tools.ts';
import { timelineRoutes } from './routes.ts';

const needs = [
  'access',
  'audit',
  'cluster',
  'config',
  'configFile',
  'connection',
  'sessions',
  'settingsFile',
  'timeline',
  'topology',
] as const;
/** What the timeline feature reads of the agent. */
export type TimelineContext = ContextOf<typeof needs>;

export const timelineModule = defineAgentModule({
  name: 'timeline',
  needs,
  register: routesOnly(timelineRoutes),
  tools: timelineTools,
});
