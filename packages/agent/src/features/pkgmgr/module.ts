import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { pkgmgrTools } from './mcp-tools.ts';
import { pkgmgrRoutes } from './routes.ts';

const needs = ['access', 'cluster', 'config', 'log', 'sessions', 'timeline'] as const;
/** What the pkgmgr feature reads of the agent. */
export type PkgmgrContext = ContextOf<typeof needs>;

export const pkgmgrModule = defineAgentModule({
  name: 'pkgmgr',
  needs,
  register: routesOnly(pkgmgrRoutes),
  tools: pkgmgrTools,
});
