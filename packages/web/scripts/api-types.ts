import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';

const root = resolve(import.meta.dirname, '../../..');

/**
 * The two servers whose routes the web UI calls, each with its OpenAPI document (the source) and the types
 * generated from it (not committed: the bootstrap writes them before it builds or type-checks the UI).
 */
export const apiTypes = {
  agent: {
    document: resolve(root, 'docs/api/agent-openapi.json'),
    types: resolve(root, 'packages/web/src/api/generated/agent-api.ts'),
  },
  hub: {
    document: resolve(root, 'docs/api/hub-openapi.json'),
    types: resolve(root, 'packages/web/src/api/generated/hub-api.ts'),
  },
} as const;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/**
 * The document with each stream event's `data` typed as the page reads it, JSON-decoded: a `text/event-stream`
 * schema documents `data` as a string whose `contentSchema` is its shape (packages/common/src/server/schemas.ts).
 */
export function decodedStreams(doc: unknown): unknown {
  const copy = structuredClone(doc) as { paths?: Record<string, Record<string, Json>> };
  const decode = (event: unknown) => {
    const data = isObject(event) && isObject(event.properties) ? event.properties.data : undefined;
    if (isObject(data) && isObject(data.contentSchema))
      (event as { properties: Json }).properties.data = data.contentSchema;
  };
  for (const operations of Object.values(copy.paths ?? {}))
    for (const operation of Object.values(operations)) {
      const schema = (
        operation.responses as Record<string, { content?: Record<string, Json> }> | undefined
      )?.['200']?.content?.['text/event-stream']?.schema;
      if (isObject(schema) && Array.isArray(schema.anyOf)) schema.anyOf.forEach(decode);
      else decode(schema);
    }
  return copy;
}

/**
 * A server's routes as TypeScript types for the web UI's client, from its OpenAPI document (openapi-typescript
 * lives in this package, beside the TypeScript version it needs).
 */
export async function webApiTypesSource(server: keyof typeof apiTypes, doc: unknown): Promise<string> {
  const ast = await openapiTS(decodedStreams(doc) as Parameters<typeof openapiTS>[0]);
  return `// Generated from docs/api/${server}-openapi.json by packages/web/scripts/api-types.ts; do not edit.\n${astToString(ast)}`;
}

if (import.meta.main) {
  for (const [server, files] of Object.entries(apiTypes)) {
    const doc = JSON.parse(await readFile(files.document, 'utf8')) as unknown;
    await writeFile(files.types, await webApiTypesSource(server as keyof typeof apiTypes, doc));
  }
}
