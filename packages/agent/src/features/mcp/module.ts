import { defineAgentModule } from '../../module.ts';
import { mcpRoutes } from './routes.ts';

/** The endpoint only: the tools are the other modules' (docs/adr/0101-mcp-tools-from-modules.md). */
export const mcpModule = defineAgentModule({
  name: 'mcp',
  needs: ['config', 'version'],
  uses: ['mcpTools'],
  enabled: ({ config }) => !config.noMcp,
  register(app, ctx, { mcpTools }) {
    mcpRoutes(app, { version: ctx.version, tools: mcpTools, readOnly: ctx.config.mcpReadOnly });
  },
});
