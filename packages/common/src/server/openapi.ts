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
    transformObject: (generated) =>
      'openapiObject' in generated
        ? optionalDefaults(generated.openapiObject as OpenApiDocument)
        : generated.swaggerObject,
  });
}

interface OpenApiDocument {
  paths?: Record<
    string,
    Record<string, { parameters?: { required?: boolean; schema?: { default?: unknown } }[] }>
  >;
}

/**
 * A parameter with a default may be left out: the server fills it in. TypeBox lists such properties as required
 * (their type in the handler is never undefined), so the document is told the truth here.
 */
function optionalDefaults<T extends OpenApiDocument>(document: T): T {
  for (const operations of Object.values(document.paths ?? {}))
    for (const operation of Object.values(operations))
      for (const parameter of operation.parameters ?? [])
        if (parameter.schema?.default !== undefined) parameter.required = false;
  return document;
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
