import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { rbacTools } from './mcp-tools.ts';
import { accessRoutes } from './routes.ts';

const needs = ['access', 'cluster'] as const;
/** What the rbac feature reads of the agent. */
export type RbacContext = ContextOf<typeof needs>;

/** Access views: what a subject may do and who may do something, as routes and as tools (docs/access.md). */
export const rbacModule = defineAgentModule({
  name: 'rbac',
  needs,
  register: routesOnly(accessRoutes),
  tools: rbacTools,
});
