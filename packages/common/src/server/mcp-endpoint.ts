import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { ErrorCode } from '../errors.ts';
import type { TypedApp } from './app.ts';
import { AppError, internal } from './errors.ts';
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

/** The statuses the SDK's transport refuses a request with, in our codes (a stateless server has no sessions). */
const refusals: Record<number, ErrorCode> = {
  400: 'invalid_request',
  406: 'not_acceptable',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

/**
 * A refusal of the SDK's transport (a JSON-RPC error body with no id, e.g. 406 for a client whose Accept header
 * lacks `text/event-stream`) as one of ours, so every answer of the endpoint is `{error, code}` (ADR 0015).
 */
async function refusal(response: Response): Promise<AppError> {
  const text = await response.text();
  const code = refusals[response.status];
  if (!code) return internal(new Error(`MCP transport answered ${response.status}: ${text.slice(0, 300)}`));
  let message = `the MCP endpoint refused the request (${response.status})`;
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof body.error?.message === 'string') message = body.error.message;
  } catch {
    // The status alone says enough.
  }
  return new AppError(code, message);
}

/** The fastify request as the web Request the transport reads: its method and headers (the body is parsed). */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    // A request served over HTTP/2 (the hub's tunnel, ADR 0111) also lists `:method`, `:path`…: no header names.
    if (value !== undefined && !name.startsWith(':'))
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  // The host is not read (no DNS-rebinding check; the routes' own access rules apply), so a fixed one will do.
  return new Request(new URL(request.url, 'http://mcp.invalid'), { method: request.method, headers });
}

/**
 * An MCP endpoint over Streamable HTTP, stateless (each POST gets its own server and transport) and answering
 * JSON, as the agent's `/mcp` and the hub's are. GET and DELETE, which only stateful servers use, are 405. The
 * SDK's web-standard transport answers with a Response: an answer goes out as it is, a refusal as our error.
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
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      // A client that goes away ends the server, and with it the tool calls it still runs.
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      const response = await transport.handleRequest(webRequest(request), { parsedBody: request.body });
      if (response.status >= 400) throw await refusal(response);
      reply.code(response.status).header('cache-control', 'no-store');
      if (response.status === 202) return reply.send();
      return reply
        .type(response.headers.get('content-type') ?? 'application/json')
        .send(await response.text());
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
