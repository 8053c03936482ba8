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

/**
 * A server's routes as TypeScript types for the web UI's client, from its OpenAPI document (openapi-typescript
 * lives in this package, beside the TypeScript version it needs).
 */
export async function webApiTypesSource(server: keyof typeof apiTypes, doc: unknown): Promise<string> {
  const ast = await openapiTS(doc as Parameters<typeof openapiTS>[0]);
  return `// Generated from docs/api/${server}-openapi.json by packages/web/scripts/api-types.ts; do not edit.\n${astToString(ast)}`;
}

if (import.meta.main) {
  for (const [server, files] of Object.entries(apiTypes)) {
    const doc = JSON.parse(await readFile(files.document, 'utf8')) as unknown;
    await writeFile(files.types, await webApiTypesSource(server as keyof typeof apiTypes, doc));
  }
}
