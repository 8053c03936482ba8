import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { upgradeTools } from './mcp-tools.ts';
import { upgradeRoutes } from './routes.ts';

const needs = ['access', 'cluster', 'config'] as const;
/** What the upgrade readiness feature reads of the agent. */
export type UpgradeContext = ContextOf<typeof needs>;

/** Kubernetes upgrade readiness: the uses of API versions a target release removes (docs/upgrade-readiness.md). */
export const upgradeModule = defineAgentModule({
  name: 'upgrade',
  needs,
  register: routesOnly(upgradeRoutes),
  tools: upgradeTools,
});
