/**
 * Regenerates the API reference files that tests keep in step with the code:
 *   docs/api/agent-openapi.json  the agent's OpenAPI document
 *   docs/api/hub-openapi.json    the hub's OpenAPI document
 *   docs/api/errors.md           the table of error codes (between the markers)
 * Run `npm run api:docs` after changing a route schema or an error code, and commit the result.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { errorTableMarkdown } from '@binnacle/common';
import { agentOpenApiDocument } from '../packages/agent/src/openapi-document.ts';
import { hubOpenApiDocument } from '../packages/hub/src/openapi-document.ts';

const root = resolve(import.meta.dirname, '..');
export const openApiSnapshot = resolve(root, 'docs/api/agent-openapi.json');
export const hubOpenApiSnapshot = resolve(root, 'docs/api/hub-openapi.json');
export const errorsDoc = resolve(root, 'docs/api/errors.md');
const begin = '<!-- error-codes:begin -->';
const end = '<!-- error-codes:end -->';

export const serializeOpenApi = (doc: unknown) => `${JSON.stringify(doc, null, 2)}\n`;

export function withErrorTable(markdown: string): string {
  const from = markdown.indexOf(begin);
  const to = markdown.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${errorsDoc} lacks the ${begin} / ${end} markers`);
  return `${markdown.slice(0, from + begin.length)}\n${errorTableMarkdown()}\n${markdown.slice(to)}`;
}

if (import.meta.main) {
  const agentDoc = await agentOpenApiDocument();
  await writeFile(openApiSnapshot, serializeOpenApi(agentDoc));
  await writeFile(hubOpenApiSnapshot, serializeOpenApi(await hubOpenApiDocument()));
  await writeFile(errorsDoc, withErrorTable(await readFile(errorsDoc, 'utf8')));
  process.stdout.write(`wrote ${openApiSnapshot}, ${hubOpenApiSnapshot} and ${errorsDoc}\n`);
}
