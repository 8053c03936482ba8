import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ErrorSchema, errorResponses, Query } from './schemas.ts';

/** Registers the OpenAPI generator; call before any route so every route lands in the document. */
export async function registerOpenApi(
  app: FastifyInstance,
  info: { title: string; version: string; description: string },
): Promise<void> {
  app.addSchema(ErrorSchema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info,
      components: {},
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
}

/** GET /api/openapi.json: the document generated from the route schemas. */
export function openApiRoute(app: FastifyInstance, config: Record<string, unknown> = {}): void {
  app.get(
    '/api/openapi.json',
    {
      config,
      schema: {
        tags: ['meta'],
        summary: 'This OpenAPI document',
        querystring: Query({}),
        response: { 200: Type.Object({}, { additionalProperties: true }), ...errorResponses },
      },
    },
    () => app.swagger(),
  );
}
