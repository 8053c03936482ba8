import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';

type BuildValidator = ReturnType<typeof AjvCompiler>;
type BuildSerializer = ReturnType<typeof SerializerSelector>;
/** What the pool's compilers are called with at run time; the package's types call it a bare schema. */
type Compile = FastifySchemaCompiler<unknown>;
type Validate = ((data: unknown, context?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };

const pool = AjvCompiler();
const serializers = SerializerSelector();

/**
 * A route's validator, compiled the first time a request needs it rather than when the server starts: compiling
 * the schemas of every route was half of the agent's start-up (ADR 0022). Fastify reads `errors` after a refusal
 * and `schemaEnv` before the call (to let the validator coerce the request part), so both pass through.
 */
function lazyValidator(make: () => Validate): Validate {
  let compiled: Validate | undefined;
  const real = () => {
    compiled ??= make();
    return compiled;
  };
  const validate: Validate = (data, context) => {
    const fn = real();
    const result = fn(data, context);
    validate.errors = fn.errors;
    return result;
  };
  Object.defineProperty(validate, 'schemaEnv', { get: () => real().schemaEnv });
  return validate;
}

/**
 * Fastify's validator with one difference per part of the request: query strings, path parameters and headers
 * arrive as text, so their values are coerced to the schema's types (`?limit=5` is the number 5); a JSON body
 * carries its own types, so it is taken as sent — `"3"` is not an integer and `false` is not a string.
 */
export const buildValidator: BuildValidator = (externalSchemas, options) => {
  // The pool makes an Ajv instance per distinct set of shared schemas and options, and every plugin's context
  // asks for one at start-up: made on the first compile instead, like the validators themselves.
  let text: Compile | undefined;
  let json: Compile | undefined;
  const compilerFor = (part: string | undefined): Compile => {
    if (part !== 'body') {
      text ??= pool(externalSchemas, options) as unknown as Compile;
      return text;
    }
    json ??= pool(externalSchemas, {
      ...options,
      mode: undefined, // JSON Schema, as fastify's own; JTD has no coercion to turn off
      customOptions: { ...options?.customOptions, coerceTypes: false },
    }) as unknown as Compile;
    return json;
  };
  const compile: Compile = (route) =>
    lazyValidator(() => compilerFor(route.httpPart)(route) as unknown as Validate) as never;
  return compile as unknown as ReturnType<BuildValidator>;
};

/** Fastify's response serializers (fast-json-stringify), each compiled when its route first answers. */
export const buildSerializer: BuildSerializer = (externalSchemas, options) => {
  let build: FastifySerializerCompiler<unknown> | undefined;
  const compile: FastifySerializerCompiler<unknown> = (route) => {
    let serialize: ((data: unknown) => string) | undefined;
    return (data) => {
      build ??= serializers(externalSchemas, options) as unknown as FastifySerializerCompiler<unknown>;
      serialize ??= build(route);
      return serialize(data);
    };
  };
  return compile as unknown as ReturnType<BuildSerializer>;
};
