import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { desktopRoutes } from './routes.ts';

const needs = ['config', 'version'] as const;
/** What the desktop feature reads of the agent. */
export type DesktopContext = ContextOf<typeof needs>;

export const desktopModule = defineAgentModule({
  name: 'desktop',
  needs,
  register: routesOnly(desktopRoutes),
});
