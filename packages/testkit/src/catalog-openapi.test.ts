import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { disagreements } from './catalog-agreement.ts';
import { contractAsOpenApi } from './catalog-contract.ts';
import { catalogPackages } from './catalog-data.ts';
import { findArtifactHubOpenApi, OpenApiDocument, toJsonSchema } from './catalog-openapi.ts';
import { catalogOperations, startCatalogServer } from './catalog-server.ts';

// Looking for the published document may wait for GitHub (10 s to connect) where the cache does not hold it.
const lookupTimeout = 90_000;

describe('OpenAPI 3.0 schemas as JSON Schema', () => {
  it('turns nullable into a null type, drops examples and points refs at the definitions', () => {
    expect(
      toJsonSchema({
        type: 'object',
        nullable: false,
        example: { a: 1 },
        properties: {
          example: { type: 'string', nullable: true, example: 'x' },
          kind: { type: 'integer', enum: [0, 1], nullable: true },
          repository: { $ref: '#/components/schemas/RepositorySummary' },
          either: { allOf: [{ $ref: '#/components/schemas/A' }], nullable: true },
        },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        example: { type: ['string', 'null'] },
        kind: { type: ['integer', 'null'], enum: [0, 1, null] },
        repository: { $ref: 'artifacthub#/definitions/RepositorySummary' },
        either: { anyOf: [{ allOf: [{ $ref: 'artifacthub#/definitions/A' }] }, { type: 'null' }] },
      },
    });
  });
});

describe('the catalog contract', () => {
  it(
    'holds every answer the local catalog gives over its data set, as the published document does where it can be had',
    async () => {
      const catalog = await startCatalogServer();
      try {
        expect(catalog.checks[0]?.name).toBe('the catalog contract');
        expect(catalog.validation).toContain('the catalog contract');
        const get = (path: string) => fetch(`${catalog.url}/api/v1${path}`).then((r) => r.text());
        for (const query of [
          'facets=false&kind=0',
          'facets=false&kind=0&kind=1&ts_query_web=nginx&sort=stars&offset=1&limit=60',
          'facets=false&official=true&verified_publisher=true&deprecated=true&sort=last_updated',
          'facets=true&ts_query_web=nothing-matches',
        ])
          await get(`/packages/search?${query}`);
        for (const p of catalogPackages) {
          await get(`/packages/helm/${p.repository.name}/${p.name}`);
          for (const v of p.versions) {
            await get(`/packages/helm/${p.repository.name}/${p.name}/${v.version}`);
            await get(`/packages/${p.package_id}/${v.version}/values`);
            await get(`/packages/${p.package_id}/${v.version}/values-schema`);
          }
        }
        await get('/packages/helm/bitnami/nope');
        expect(catalog.requests.length).toBeGreaterThan(40);
        expect(catalog.failures).toEqual([]);
      } finally {
        await catalog.close();
      }
    },
    lookupTimeout,
  );

  it('refuses requests and answers off it', () => {
    const contract = OpenApiDocument.from('the catalog contract', contractAsOpenApi(), catalogOperations);
    const search = contract.match('GET', '/api/v1/packages/search');
    const op = search?.operation as NonNullable<typeof search>['operation'];
    expect(contract.checkRequest(op, {}, new URLSearchParams('q=x&limit=61'))).toEqual([
      'the catalog contract: query parameter q is not in searchPackages',
      'the catalog contract: query parameter facets of searchPackages is required',
      'the catalog contract: query parameter limit=61 of searchPackages: (root) must be <= 60',
    ]);
    const [good] = JSON.parse(
      JSON.stringify([
        {
          package_id: catalogPackages[0]?.package_id,
          name: 'x',
          normalized_name: 'x',
          version: '1.0.0',
          stars: 1,
          ts: 1,
          repository: catalogPackages[0]?.repository,
        },
      ]),
    ) as Record<string, unknown>[];
    const check = (pkg: unknown, headers: Record<string, string> = { 'Pagination-Total-Count': '1' }) =>
      contract.checkResponse(op, 200, 'application/json', JSON.stringify({ packages: [pkg] }), headers);
    expect(check(good)).toEqual([]);
    expect(check({ ...good, stars: 'many', description: null, extra: 1 }, {})).toEqual([
      'the catalog contract: searchPackages answer 200: header Pagination-Total-Count is missing',
      'the catalog contract: searchPackages answer 200: /packages/0 must NOT have additional properties; ' +
        '/packages/0/description must be string; /packages/0/stars must be integer',
    ]);
    expect(contract.checkResponse(op, 404, 'application/json', '{"message":""}')).toEqual([
      'the catalog contract: searchPackages answer 404: the status is not listed',
    ]);
  });

  it(
    "agrees with Artifact Hub's published document where it can be had, else says how to provide it",
    async () => {
      const found = await findArtifactHubOpenApi();
      if ('missing' in found) {
        expect(found.missing).toContain('BINNACLE_ARTIFACTHUB_OPENAPI');
        return;
      }
      const document = parse(await readFile(found.path, 'utf8')) as Record<string, unknown>;
      expect(disagreements(contractAsOpenApi(), document, catalogOperations)).toEqual([]);
    },
    lookupTimeout,
  );

  it('names every way a contract can disagree with a document', () => {
    const op = (parameters: unknown[], body: unknown) => ({
      servers: [{ url: '/api/v1' }],
      paths: {
        '/things': {
          get: {
            operationId: 'listThings',
            parameters,
            responses: { 200: { content: { 'application/json': { schema: body } } } },
          },
        },
      },
    });
    const document = {
      ...op(
        [
          { $ref: '#/components/parameters/Page' },
          { name: 'all', in: 'query', required: true, schema: { type: 'boolean' } },
        ],
        { type: 'array', items: { allOf: [{ $ref: '#/components/schemas/Thing' }, { required: ['size'] }] } },
      ),
      components: {
        parameters: { Page: { name: 'page', in: 'query', schema: { type: 'integer', enum: [1, 2] } } },
        schemas: {
          Thing: {
            type: 'object',
            required: ['id'],
            properties: {
              id: { type: 'string', format: 'uuid' },
              weight: { type: 'number' },
              label: { type: 'string', nullable: true },
            },
          },
        },
      },
    };
    const agreeing = op(
      [
        { name: 'page', in: 'query', required: false, schema: { type: 'integer', enum: [2] } },
        { name: 'all', in: 'query', required: true, schema: { type: 'boolean' } },
      ],
      {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'size'],
          properties: {
            id: { type: 'string', format: 'uuid' },
            size: { type: 'integer' },
            weight: { type: 'integer' },
            label: { type: ['string', 'null'] },
          },
        },
      },
    );
    expect(disagreements(agreeing, document, ['listThings'])).toEqual([]);
    const wrong = op(
      [
        { name: 'page', in: 'query', required: false, schema: { type: 'integer', enum: [3] } },
        { name: 'sort', in: 'query', required: false, schema: { type: 'string' } },
      ],
      {
        type: 'array',
        items: {
          type: 'object',
          required: ['id'],
          properties: {
            id: { type: 'string' },
            size: { type: 'integer' },
            weight: { type: ['number', 'null'] },
            colour: { type: 'string' },
          },
        },
      },
    );
    expect(disagreements(wrong, document, ['listThings', 'getThing'])).toEqual([
      "listThings query parameter page: 3 is not among the document's values",
      'listThings query parameter sort is not in the document',
      'listThings query parameter all is required by the document, not in the contract',
      'listThings [].id: format none, not uuid',
      'listThings [].size is required by the document, optional in the contract',
      'listThings [].weight: null where the document allows number',
      'listThings [].colour is not in the document',
      'getThing is not in the contract',
    ]);
  });
});
