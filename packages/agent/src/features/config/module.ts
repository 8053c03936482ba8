import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { configRoutes } from './routes.ts';

const needs = ['config', 'configFile', 'settingsFile'] as const;
/** What the config feature reads of the agent. */
export type ConfigContext = ContextOf<typeof needs>;

export const configModule = defineAgentModule({
  name: 'config',
  needs,
  register: routesOnly(configRoutes),
});
