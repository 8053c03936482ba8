import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { hubOpenApiSnapshot, serializeOpenApi } from '../../../scripts/api-docs.ts';
import { apiTypes, webApiTypesSource } from '../../web/scripts/api-types.ts';
import { hubOpenApiDocument } from './openapi-document.ts';

describe('hub API reference', () => {
  it('docs/api/hub-openapi.json is the document the routes generate (run `npm run api:docs` and commit the result)', async () => {
    expect(serializeOpenApi(await hubOpenApiDocument())).toBe(await readFile(hubOpenApiSnapshot, 'utf8'));
  });

  it('every operation documents its error answers, so a client knows any 4xx/5xx is { error, code }', async () => {
    const doc = await hubOpenApiDocument();
    const undocumented = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { responses?: Record<string, unknown> }>)
        .filter(
          ([, operation]) =>
            operation.responses && !(operation.responses['4XX'] && operation.responses['5XX']),
        )
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(undocumented).toEqual([]);
  });

  it("the web UI's hub client types are those of the hub's document (sh scripts/bootstrap.sh writes them)", async () => {
    const doc = JSON.parse(await readFile(hubOpenApiSnapshot, 'utf8'));
    expect(await webApiTypesSource('hub', doc)).toBe(await readFile(apiTypes.hub.types, 'utf8'));
  });
});
