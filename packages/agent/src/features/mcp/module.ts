import { type ContextOf, defineAgentModule } from '../../module.ts';
import { mcpRoutes } from './routes.ts';

const needs = [
  'access',
  'audit',
  'cluster',
  'config',
  'configFile',
  'connection',
  'log',
  'metrics',
  'sessions',
  'settingsFile',
  'timeline',
  'topology',
  'version',
] as const;
/** What the mcp feature reads of the agent. */
export type McpContext = ContextOf<typeof needs>;

export const mcpModule = defineAgentModule({
  name: 'mcp',
  needs,
  enabled: ({ config }) => !config.noMcp,
  register(app, ctx) {
    mcpRoutes(app, ctx, { readOnly: ctx.config.mcpReadOnly });
  },
});
