import { registerMcpEndpoint } from '@binnacle/common/server';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { type McpOffer, mcpServer } from './server.ts';

/**
 * `/mcp`: the Model Context Protocol over stateless Streamable HTTP, the tools running as the caller; and
 * `/mcp-readonly` beside it (ADR 0115), the same read tools and no other, for an organisation to hand to
 * assistants knowing nothing can change through it whatever the caller may do.
 */
export function mcpRoutes(app: App, offer: McpOffer): void {
  for (const endpoint of [
    { url: '/mcp', offered: offer },
    { url: '/mcp-readonly', offered: { ...offer, readOnly: true } },
  ]) {
    const { offered } = endpoint;
    registerMcpEndpoint(app, {
      url: endpoint.url,
      summary: `MCP (Streamable HTTP, stateless): tools for this cluster, as the caller${offered.readOnly ? ' (read-only: only the tools that read, and nothing but reads sent to the cluster)' : ''}`,
      config: callerAware,
      // The 405 for GET/DELETE says the same to everyone: a caller with no cluster-wide read access got a 403
      // instead, which MCP clients take as a broken connection (the Inspector then listed no tools).
      refusalConfig: callerAware,
      serverFor: (request) => Promise.resolve(mcpServer(offered, request.caller)),
    });
  }
}
