import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every number a caller puts in a URL is bounded by its schema: a query, path or header parameter of type
 * integer or number without a `maximum` reached the database as 2^63 and answered 500 (issue 37). Walks the
 * committed OpenAPI documents of both servers, which tests keep equal to what the routes generate.
 */
const documents = ['agent-openapi.json', 'hub-openapi.json'].map((name) =>
  resolve(import.meta.dirname, '../../../../docs/api', name),
);

interface Schema {
  type?: string | string[];
  default?: unknown;
  maximum?: number;
  exclusiveMaximum?: number;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  items?: Schema;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
}

/** The numeric parts of a schema (alternatives and array items included) that have no upper bound. */
function unbounded(schema: Schema | undefined): Schema[] {
  if (!schema) return [];
  const nested = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? []), schema.items]
    .filter((part): part is Schema => part !== undefined)
    .flatMap(unbounded);
  const types = [schema.type ?? []].flat();
  const numeric = types.includes('integer') || types.includes('number');
  const bounded = schema.maximum !== undefined || schema.exclusiveMaximum !== undefined;
  return numeric && !bounded ? [schema, ...nested] : nested;
}

describe('numeric parameters in the OpenAPI documents', () => {
  it.each(documents)('%s: every integer or number parameter has a maximum', async (path) => {
    const doc = JSON.parse(await readFile(path, 'utf8')) as {
      paths: Record<string, Record<string, { parameters?: Parameter[] }>>;
    };
    const missing: string[] = [];
    let numeric = 0;
    for (const [route, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const parameter of operation.parameters ?? []) {
          if (JSON.stringify(parameter.schema ?? {}).match(/"(integer|number)"/)) numeric += 1;
          if (unbounded(parameter.schema).length > 0)
            missing.push(`${method.toUpperCase()} ${route} ${parameter.in} ${parameter.name}`);
        }
      }
    }
    // The walk sees the parameters it checks: a document whose shape it misread would pass with nothing.
    expect(numeric).toBeGreaterThan(0);
    expect(missing).toEqual([]);
  });

  it('leaves every parameter with a default optional in both documents (the server fills it in)', async () => {
    const parameters: Parameter[] = [];
    for (const path of documents) {
      const doc = JSON.parse(await readFile(path, 'utf8')) as {
        paths: Record<string, Record<string, { parameters?: Parameter[] }>>;
      };
      for (const operations of Object.values(doc.paths))
        for (const operation of Object.values(operations)) parameters.push(...(operation.parameters ?? []));
    }
    const withDefault = parameters.filter((parameter) => parameter.schema?.default !== undefined);
    expect(withDefault.length).toBeGreaterThan(0);
    expect(withDefault.filter((parameter) => parameter.required).map((p) => `${p.in} ${p.name}`)).toEqual([]);
  });
});
