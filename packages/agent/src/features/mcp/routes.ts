import { registerMcpEndpoint } from '@binnacle/common/server';
import type { AgentContext, App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { mcpServer } from './server.ts';

/** `/mcp`: the Model Context Protocol over stateless Streamable HTTP, the tools running as the caller. */
export function mcpRoutes(app: App, ctx: AgentContext, options: { readOnly: boolean }): void {
  registerMcpEndpoint(app, {
    url: '/mcp',
    summary: `MCP (Streamable HTTP, stateless): tools for this cluster, as the caller${options.readOnly ? ' (read-only)' : ''}`,
    config: callerAware,
    serverFor: (request) => Promise.resolve(mcpServer(ctx, request.caller, options)),
  });
}
