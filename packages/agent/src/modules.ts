import { agentUpdateModule } from './features/agent-update/module.ts';
import { aiModule } from './features/ai/module.ts';
import { auditModule } from './features/audit/module.ts';
import { authModule } from './features/auth/module.ts';
import { certificatesModule } from './features/certificates/module.ts';
import { compareModule } from './features/compare/module.ts';
import { configModule } from './features/config/module.ts';
import { contextsModule } from './features/contexts/module.ts';
import { costModule } from './features/cost/module.ts';
import { cronjobsModule } from './features/cronjobs/module.ts';
import { dashboardModule } from './features/dashboard/module.ts';
import { debugModule } from './features/debug/module.ts';
import { desktopModule } from './features/desktop/module.ts';
import { ecosystemModule } from './features/ecosystem/module.ts';
import { execModule } from './features/exec/module.ts';
import { gitopsModule } from './features/gitops/module.ts';
import { healthModule } from './features/health/module.ts';
import { imagesModule } from './features/images/module.ts';
import { logsModule } from './features/logs/module.ts';
import { mcpModule } from './features/mcp/module.ts';
import { metricsModule } from './features/metrics/module.ts';
import { metricsdbModule } from './features/metricsdb/module.ts';
import { netpolModule } from './features/netpol/module.ts';
import { nodesModule } from './features/nodes/module.ts';
import { packagesModule } from './features/packages/module.ts';
import { pkgmgrModule } from './features/pkgmgr/module.ts';
import { portforwardModule } from './features/portforward/module.ts';
import { rbacModule } from './features/rbac/module.ts';
import { repohostModule } from './features/repohost/module.ts';
import { resourcesModule } from './features/resources/module.ts';
import { selectionModule } from './features/selection/module.ts';
import { sessionsModule } from './features/sessions/module.ts';
import { tablesModule } from './features/tables/module.ts';
import { timelineModule } from './features/timeline/module.ts';
import { timeTravelModule } from './features/timetravel/module.ts';
import { topologyModule } from './features/topology/module.ts';
import { trafficModule } from './features/traffic/module.ts';
import { upgradeModule } from './features/upgrade/module.ts';
import { workloadsModule } from './features/workloads/module.ts';
import type { AnyAgentModule } from './module.ts';

/**
 * The composition root's list of features (docs/adr/0092-feature-modules.md), registered in this order (the order
 * of the OpenAPI document's paths); a module that uses another's service comes after it (traffic's pairs
 * before topology; metricsdb builds its stores before any module registers).
 */
export const agentModules: readonly AnyAgentModule[] = [
  healthModule,
  authModule,
  configModule,
  contextsModule,
  resourcesModule,
  selectionModule,
  compareModule,
  tablesModule,
  dashboardModule,
  pkgmgrModule,
  packagesModule,
  timelineModule,
  timeTravelModule,
  trafficModule,
  topologyModule,
  logsModule,
  execModule,
  portforwardModule,
  sessionsModule,
  workloadsModule,
  cronjobsModule,
  gitopsModule,
  ecosystemModule,
  certificatesModule,
  aiModule,
  repohostModule,
  agentUpdateModule,
  desktopModule,
  mcpModule,
  auditModule,
  netpolModule,
  rbacModule,
  upgradeModule,
  nodesModule,
  metricsModule,
  imagesModule,
  metricsdbModule,
  costModule,
  debugModule,
];

/**
 * The order an assistant is shown the MCP tools in (docs/adr/0101-mcp-tools-from-modules.md): where to begin first
 * (the dashboard, namespaces, objects, events, logs, changes), then the cluster as a whole, one workload, what is
 * installed, and the tools that write last. `registerModules` refuses a tool this list leaves out.
 */
export const agentToolOrder: readonly string[] = [
  'get_dashboard',
  'list_namespaces',
  'list_resources',
  'get_resource',
  'compare_objects',
  'selection_impact',
  'get_events',
  'get_pod_logs',
  'get_changes',
  'what_changed',
  'get_cluster_at',
  'get_cluster_audit',
  'list_helm_releases',
  'get_topology',
  'top_resources',
  'issues',
  'search',
  'get_subject_permissions',
  'who_can',
  'upgrade_readiness',
  'drain_fit',
  'get_neighborhood',
  'network_policy_impact',
  'propose_network_policies',
  'get_workload_logs',
  'diagnose',
  'get_helm_release',
  'list_packages',
  'manage_workload',
  'manage_cronjob',
  'manage_node',
  'manage_gitops',
  'manage_ecosystem',
  'apply_resource',
  'patch_resource',
];
