import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { hubOpenApiSnapshot, serializeOpenApi } from '../../../../scripts/api-docs.ts';
import { hubOpenApiDocument } from './openapi-document.ts';

describe('hub API reference', () => {
  it('docs/api/hub-openapi.json is the document the routes generate (run `npm run api:docs` and commit the result)', async () => {
    expect(serializeOpenApi(await hubOpenApiDocument())).toBe(await readFile(hubOpenApiSnapshot, 'utf8'));
  });
});
