import { AppError, errorResponses, Query } from '@binnacle/common/server';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Type } from 'typebox';
import type { AgentContext, App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { mcpServer } from './server.ts';

const tags = ['ai'];
const stateless =
  'this MCP endpoint is stateless Streamable HTTP: send every JSON-RPC message with POST (no session, no server-sent stream)';

/**
 * `/mcp`: the Model Context Protocol over Streamable HTTP, stateless (each POST gets its own server and
 * transport), answering JSON. GET and DELETE, which only stateful servers use, are 405.
 */
export function mcpRoutes(app: App, ctx: AgentContext, options: { readOnly: boolean }): void {
  app.post(
    '/mcp',
    {
      config: callerAware,
      schema: {
        tags,
        summary: `MCP (Streamable HTTP, stateless): tools for this cluster, as the caller${options.readOnly ? ' (read-only)' : ''}`,
        querystring: Query({}),
        body: Type.Unknown({ description: 'a JSON-RPC 2.0 message or batch' }),
        response: {
          200: Type.Unknown({ description: 'the JSON-RPC answer' }),
          202: Type.Null({ description: 'a notification was accepted' }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const server = mcpServer(ctx, request.caller, options);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      reply.hijack();
      reply.raw.setHeader('cache-control', 'no-store');
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  );

  for (const method of ['get', 'delete'] as const) {
    app[method](
      '/mcp',
      {
        schema: {
          tags,
          summary: `405: ${stateless}`,
          querystring: Query({}),
          response: errorResponses,
        },
      },
      () => {
        throw new AppError('method_not_allowed', stateless, { headers: { allow: 'POST' } });
      },
    );
  }
}
