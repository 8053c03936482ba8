import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { hubOpenApiSnapshot, serializeOpenApi } from '../../../../scripts/api-docs.ts';
import { apiTypes, webApiTypesSource } from '../../../web/scripts/api-types.ts';
import { hubOpenApiDocument } from './openapi-document.ts';

describe('hub API reference', () => {
  it('docs/api/hub-openapi.json is the document the routes generate (run `npm run api:docs` and commit the result)', async () => {
    expect(serializeOpenApi(await hubOpenApiDocument())).toBe(await readFile(hubOpenApiSnapshot, 'utf8'));
  });

  it("the web UI's hub client types are those of the hub's document (sh scripts/bootstrap.sh writes them)", async () => {
    const doc = JSON.parse(await readFile(hubOpenApiSnapshot, 'utf8'));
    expect(await webApiTypesSource('hub', doc)).toBe(await readFile(apiTypes.hub.types, 'utf8'));
  });
});
