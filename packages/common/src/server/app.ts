import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  LogController,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import { registerCompression } from './compression.ts';
import { type PageFallback, registerErrorHandling, sendError } from './error-handler.ts';
import { answerClientError, maxPathSegment } from './framework-errors.ts';
import { registerJsonBodies } from './json-body.ts';
import { openApiRoute, registerOpenApi } from './openapi.ts';
import { buildSerializer, buildValidator } from './validators.ts';

/** A Binnacle server's fastify instance, with TypeBox types on every route (the agent's App, the hub's HubApp). */
export type TypedApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export interface AppOptions {
  logger: FastifyBaseLogger;
  /** Log every request (the agent's --debug-events). */
  logRequests?: boolean;
  bodyLimit?: number;
  openapi: { title: string; version: string; description: string };
  /** Route config of the app's own routes (the OpenAPI document), e.g. the hub's access declaration. */
  builtInRouteConfig?: Record<string, unknown>;
  /** Answers a GET for a path no route has outside /api/ (the web UI's deep links); without it, a 404. */
  page?: PageFallback;
  /** Which peers' X-Forwarded-For names the client (`request.ip`); without it, the socket's peer is the client. */
  trustProxy?: (address: string, hop: number) => boolean;
}

/**
 * A fastify app with the conventions every Binnacle server follows (docs/architecture.md §4): `Cache-Control: no-store` on
 * every answer, `{error, code}` for every failure, strict schemas (unknown fields are errors, not dropped; JSON
 * bodies are taken as typed, see validators.ts), JSON bodies in UTF-8 and at most 200 levels deep (json-body.ts),
 * answers compressed as the client accepts (compression.ts, ADR 0058), and the OpenAPI document at
 * /api/openapi.json. Routes are added by the caller.
 */
export async function createApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: options.logger,
    logController: new LogController({ disableRequestLogging: !options.logRequests }),
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: maxPathSegment },
    frameworkErrors: sendError,
    clientErrorHandler: answerClientError,
    trustProxy: options.trustProxy ?? false,
    ajv: {
      // verbose: refusals carry the value, so a message can name it (pattern-errors.ts).
      customOptions: {
        removeAdditional: false,
        coerceTypes: 'array',
        useDefaults: true,
        allErrors: false,
        verbose: true,
      },
    },
    schemaController: { compilersFactory: { buildValidator, buildSerializer } },
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as FastifyInstance;
  registerJsonBodies(app);
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
  });
  // Answers still going out once the server is closing end their keep-alive connection, so closing does not
  // wait out a client that got its answer and keeps the connection (only idle ones are closed at the start).
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onSend', async (request, reply, payload) => {
    // HTTP/2 (the agent's tunneled requests, ADR 0111) has no connection header; its session ends the streams.
    if (closing && request.raw.httpVersionMajor === 1) reply.header('connection', 'close');
    return payload;
  });
  registerCompression(app);
  registerErrorHandling(app, options.page);
  await registerOpenApi(app, options.openapi);
  openApiRoute(app, options.builtInRouteConfig);
  return app;
}
