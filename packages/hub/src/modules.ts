import type { HubModule } from './context.ts';
import { accountModule } from './features/account/module.ts';
import { auditModule } from './features/audit/module.ts';
import { authModule } from './features/auth/module.ts';
import { billingModule } from './features/billing/module.ts';
import { clustersModule } from './features/clusters/module.ts';
import { compareModule } from './features/compare/module.ts';
import { fleetModule } from './features/fleet/module.ts';
import { healthModule } from './features/health/module.ts';
import { invitationsModule } from './features/invitations/module.ts';
import { mcpModule } from './features/mcp/module.ts';
import { membersModule } from './features/members/module.ts';
import { metricsModule } from './features/metrics/module.ts';
import { orgsModule } from './features/orgs/module.ts';
import { patsModule } from './features/pats/module.ts';
import { preferencesModule } from './features/preferences/module.ts';
import { ssoModule } from './features/sso/module.ts';
import { tunnelModule } from './features/tunnel/module.ts';

/**
 * The hub's features, in the order they register (docs/architecture.md §6.6): the one list of them. Each takes
 * from the context only the keys its module names.
 */
export const hubModules: readonly HubModule[] = [
  metricsModule,
  healthModule,
  authModule,
  orgsModule,
  membersModule,
  invitationsModule,
  auditModule,
  patsModule,
  clustersModule,
  billingModule,
  fleetModule,
  compareModule,
  accountModule,
  preferencesModule,
  ssoModule,
  mcpModule,
  tunnelModule,
];
