import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';

const root = resolve(import.meta.dirname, '../../..');
export const agentDocument = resolve(root, 'docs/api/agent-openapi.json');
/** Not committed: the bootstrap writes it before it builds or type-checks the UI (the document is the source). */
export const generatedTypes = resolve(root, 'packages/web/src/api/generated/agent-api.ts');

/**
 * The agent's routes as TypeScript types for the web UI's client, from the agent's OpenAPI document
 * (openapi-typescript lives in this package, beside the TypeScript version it needs).
 */
export async function webApiTypesSource(doc: unknown): Promise<string> {
  const ast = await openapiTS(doc as Parameters<typeof openapiTS>[0]);
  return `// Generated from docs/api/agent-openapi.json by packages/web/scripts/api-types.ts; do not edit.\n${astToString(ast)}`;
}

if (import.meta.main) {
  const doc = JSON.parse(await readFile(agentDocument, 'utf8')) as unknown;
  await writeFile(generatedTypes, await webApiTypesSource(doc));
}
