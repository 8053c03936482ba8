import { AjvCompiler } from '@fastify/ajv-compiler';
import type { FastifySchemaCompiler } from 'fastify';

type BuildValidator = ReturnType<typeof AjvCompiler>;
/** What the pool's compilers are called with at run time; the package's types call it a bare schema. */
type Compile = FastifySchemaCompiler<unknown>;

const pool = AjvCompiler();

/**
 * Fastify's validator with one difference per part of the request: query strings, path parameters and headers
 * arrive as text, so their values are coerced to the schema's types (`?limit=5` is the number 5); a JSON body
 * carries its own types, so it is taken as sent — `"3"` is not an integer and `false` is not a string.
 */
export const buildValidator: BuildValidator = (externalSchemas, options) => {
  const text = pool(externalSchemas, options) as unknown as Compile;
  const json = pool(externalSchemas, {
    ...options,
    mode: undefined, // JSON Schema, as fastify's own; JTD has no coercion to turn off
    customOptions: { ...options?.customOptions, coerceTypes: false },
  }) as unknown as Compile;
  const compile: Compile = (route) => (route.httpPart === 'body' ? json : text)(route);
  return compile as unknown as ReturnType<BuildValidator>;
};
