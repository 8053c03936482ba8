import { type ContextOf, defineAgentModule } from '../../module.ts';
import { rbacTools } from './mcp-tools.ts';

const needs = ['access', 'cluster'] as const;
/** What the rbac feature reads of the agent. */
export type RbacContext = ContextOf<typeof needs>;

/** A subject's permissions are answered to assistants only: a module of tools, without routes. */
export const rbacModule = defineAgentModule({
  name: 'rbac',
  needs,
  tools: rbacTools,
});
