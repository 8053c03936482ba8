import { registerMcpEndpoint } from '@binnacle/common/server';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { type McpOffer, mcpServer } from './server.ts';

/** `/mcp`: the Model Context Protocol over stateless Streamable HTTP, the tools running as the caller. */
export function mcpRoutes(app: App, offer: McpOffer): void {
  registerMcpEndpoint(app, {
    url: '/mcp',
    summary: `MCP (Streamable HTTP, stateless): tools for this cluster, as the caller${offer.readOnly ? ' (read-only)' : ''}`,
    config: callerAware,
    // The 405 for GET/DELETE says the same to everyone: a caller with no cluster-wide read access got a 403 instead,
    // which MCP clients take as a broken connection (the Inspector then listed no tools).
    refusalConfig: callerAware,
    serverFor: (request) => Promise.resolve(mcpServer(offer, request.caller)),
  });
}
