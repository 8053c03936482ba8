import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { auditTools } from './mcp-tools.ts';
import { auditRoutes } from './routes.ts';

const needs = ['access', 'audit', 'cluster', 'config', 'configFile', 'settingsFile'] as const;
/** What the audit feature reads of the agent. */
export type AuditContext = ContextOf<typeof needs>;

export const auditModule = defineAgentModule({
  name: 'audit',
  needs,
  register: routesOnly(auditRoutes),
  tools: auditTools,
});
