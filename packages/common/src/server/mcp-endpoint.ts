import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { TypedApp } from './app.ts';
import { AppError } from './errors.ts';
import { errorResponses, Query } from './schemas.ts';

const stateless =
  'this MCP endpoint is stateless Streamable HTTP: send every JSON-RPC message with POST (no session, no server-sent stream)';

export interface McpEndpoint {
  url: string;
  summary: string;
  /** Route config of the POST (who may call it). */
  config: FastifyContextConfig;
  /** Route config of the GET and DELETE answers (405 for everyone). */
  refusalConfig?: FastifyContextConfig;
  /** The MCP server for one request, acting for its caller; may refuse the request first (thrown AppError). */
  serverFor(request: FastifyRequest): Promise<Pick<Server, 'connect' | 'close'>>;
}

/**
 * An MCP endpoint over Streamable HTTP, stateless (each POST gets its own server and transport) and answering
 * JSON, as the agent's `/mcp` and the hub's are. GET and DELETE, which only stateful servers use, are 405.
 */
export function registerMcpEndpoint(app: TypedApp, endpoint: McpEndpoint): void {
  const tags = ['ai'];
  app.post(
    endpoint.url,
    {
      config: endpoint.config,
      schema: {
        tags,
        summary: endpoint.summary,
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
      const server = await endpoint.serverFor(request);
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
      endpoint.url,
      {
        config: endpoint.refusalConfig ?? {},
        schema: { tags, summary: `405: ${stateless}`, querystring: Query({}), response: errorResponses },
      },
      () => {
        throw new AppError('method_not_allowed', stateless, { headers: { allow: 'POST' } });
      },
    );
  }
}
