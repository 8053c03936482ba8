import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { errorsDoc, openApiSnapshot, serializeOpenApi, withErrorTable } from '../../../scripts/api-docs.ts';
import { apiTypes, webApiTypesSource } from '../../web/scripts/api-types.ts';
import { agentOpenApiDocument } from './openapi-document.ts';

const hint = 'run `npm run api:docs` and commit the result';

describe('API reference files', () => {
  it(`docs/api/agent-openapi.json is the document the routes generate (${hint})`, async () => {
    expect(serializeOpenApi(await agentOpenApiDocument())).toBe(await readFile(openApiSnapshot, 'utf8'));
  });

  it("the web UI's client types are those of the agent's document (sh scripts/bootstrap.sh writes them)", async () => {
    const doc = JSON.parse(await readFile(openApiSnapshot, 'utf8'));
    expect(await webApiTypesSource('agent', doc)).toBe(await readFile(apiTypes.agent.types, 'utf8'));
  });

  it('a text/event-stream answer describes one event (OpenAPI 3.1 reads a stream schema per event)', async () => {
    const doc = await agentOpenApiDocument();
    const streams = Object.values(doc.paths ?? {}).flatMap((item) =>
      Object.values(item as Record<string, { responses?: Record<string, { content?: object }> }>).flatMap(
        (operation) =>
          Object.entries(operation.responses?.['200']?.content ?? {})
            .filter(([type]) => type === 'text/event-stream')
            .map(([, media]) => (media as { schema: { type?: string; required?: string[] } }).schema),
      ),
    );
    expect(streams.length).toBeGreaterThan(0);
    for (const schema of streams) expect(schema).toMatchObject({ type: 'object', required: ['data'] });
  });

  it(`docs/api/errors.md lists exactly the codes of @binnacle/common (${hint})`, async () => {
    const current = await readFile(errorsDoc, 'utf8');
    expect(withErrorTable(current)).toBe(current);
  });
});
