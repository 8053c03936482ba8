/**
 * The part of Artifact Hub's API that the agent uses and the local catalog serves, written by this project: for
 * each operation its path, its parameters and its answers, the bodies as JSON Schema (draft-07). The local
 * catalog server checks every request and answer against it always; against Artifact Hub's published OpenAPI
 * document too where that can be had, and then catalog-openapi.test.ts checks that the two agree (see
 * docs/adr/0023-chart-catalog-tested-against-its-openapi-document.md).
 *
 * A body lists the fields the agent reads and the fields the local server sends, nothing else: a field of an
 * object is required unless its name ends in `?`, and no field may be null.
 */

export type Schema = Record<string, unknown>;

export interface ContractParameter {
  in: 'path' | 'query';
  required: boolean;
  schema: Schema;
}

export interface ContractAnswer {
  /** The content type and the body's schema; none: the answer has no body. */
  body?: { type: string; schema: Schema };
  /** Headers the answer always carries. */
  headers?: Record<string, Schema>;
}

export interface ContractOperation {
  /** The operationId in Artifact Hub's document. */
  id: string;
  /** Under `catalogBasePath`, path parameters in braces. */
  path: string;
  parameters: Record<string, ContractParameter>;
  /** By status. */
  answers: Record<number, ContractAnswer>;
}

const string = { type: 'string' };
const integer = { type: 'integer' };
const boolean = { type: 'boolean' };
const uuid = { type: 'string', format: 'uuid' };
const uri = { type: 'string', format: 'uri' };
const array = (items: Schema) => ({ type: 'array', items });
/** An object with exactly these fields; a name ending in `?` is an optional field. */
function object(fields: Record<string, Schema>): Schema {
  const names = Object.keys(fields);
  return {
    type: 'object',
    properties: Object.fromEntries(names.map((name) => [name.replace(/\?$/, ''), fields[name]])),
    required: names.filter((name) => !name.endsWith('?')),
    additionalProperties: false,
  };
}
const query = (schema: Schema, required = false): ContractParameter => ({ in: 'query', required, schema });
const path = (schema: Schema): ContractParameter => ({ in: 'path', required: true, schema });
const json = (schema: Schema): ContractAnswer => ({ body: { type: 'application/json', schema } });

const repository = object({
  repository_id: uuid,
  kind: integer,
  name: string,
  'display_name?': string,
  url: uri,
  verified_publisher: boolean,
  official: boolean,
  scanner_disabled: boolean,
  'organization_name?': string,
  'organization_display_name?': string,
  'user_alias?': string,
});

const summaryFields = {
  package_id: uuid,
  name: string,
  normalized_name: string,
  'display_name?': string,
  'description?': string,
  'logo_image_id?': string,
  version: string,
  'app_version?': string,
  'license?': string,
  'official?': boolean,
  'deprecated?': boolean,
  'signed?': boolean,
  stars: integer,
  /** Published at, seconds since 1970. */
  ts: integer,
  repository,
  'security_report_summary?': object({
    'critical?': integer,
    'high?': integer,
    'medium?': integer,
    'low?': integer,
    'unknown?': integer,
  }),
  'production_organizations_count?': integer,
};

const helmPackage = object({
  ...summaryFields,
  'logo_url?': uri,
  latest_version: string,
  available_versions: array(
    object({ version: string, contains_security_updates: boolean, prerelease: boolean, ts: integer }),
  ),
  has_values_schema: boolean,
  has_changelog: boolean,
  contains_security_updates: boolean,
  prerelease: boolean,
  'readme?': string,
  'keywords?': array(string),
  'maintainers?': array(object({ name: string, email: string })),
  'links?': array(object({ name: string, url: uri })),
  'home_url?': uri,
  'content_url?': uri,
  'data?': object({ 'apiVersion?': string, 'type?': string, 'kubeVersion?': string }),
});

const error = json(object({ message: string }));
const helmPath = { repoName: path(string), packageName: path(string) };
const versionPath = { packageID: path(uuid), version: path(string) };

export const catalogBasePath = '/api/v1';

export const catalogContract: readonly ContractOperation[] = [
  {
    id: 'searchPackages',
    path: '/packages/search',
    parameters: {
      facets: query(boolean, true),
      ts_query_web: query(string),
      kind: query(array(integer)),
      deprecated: query(boolean),
      official: query(boolean),
      verified_publisher: query(boolean),
      sort: query({ type: 'string', enum: ['relevance', 'stars', 'last_updated'] }),
      offset: query({ type: 'integer', minimum: 0 }),
      limit: query({ type: 'integer', maximum: 60 }),
    },
    answers: {
      200: {
        ...json(object({ packages: array(object(summaryFields)) })),
        headers: { 'Pagination-Total-Count': { type: 'string', pattern: '^[0-9]+$' } },
      },
      400: error,
      500: error,
    },
  },
  {
    id: 'getHelmPackageDetails',
    path: '/packages/helm/{repoName}/{packageName}',
    parameters: helmPath,
    answers: { 200: json(helmPackage), 404: error, 500: error },
  },
  {
    id: 'getHelmPackageVersionDetails',
    path: '/packages/helm/{repoName}/{packageName}/{version}',
    parameters: { ...helmPath, version: path(string) },
    answers: { 200: json(helmPackage), 404: error, 500: error },
  },
  {
    id: 'getChartValues',
    path: '/packages/{packageID}/{version}/values',
    parameters: versionPath,
    answers: { 200: { body: { type: 'application/yaml', schema: string } }, 404: error, 500: error },
  },
  {
    id: 'getPackageValuesSchema',
    path: '/packages/{packageID}/{version}/values-schema',
    parameters: versionPath,
    answers: { 200: json({ type: 'object' }), 404: error, 500: error },
  },
];

/** The contract as an OpenAPI 3.0 document, so one checker reads both it and Artifact Hub's. */
export function contractAsOpenApi(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const op of catalogContract) {
    const parameters = Object.entries(op.parameters).map(([name, p]) => ({ name, ...p }));
    const responses = Object.fromEntries(
      Object.entries(op.answers).map(([status, answer]) => [
        status,
        {
          ...(answer.body ? { content: { [answer.body.type]: { schema: answer.body.schema } } } : {}),
          ...(answer.headers
            ? {
                headers: Object.fromEntries(
                  Object.entries(answer.headers).map(([name, schema]) => [name, { required: true, schema }]),
                ),
              }
            : {}),
        },
      ]),
    );
    paths[op.path] = { get: { operationId: op.id, parameters, responses } };
  }
  return { openapi: '3.0.3', servers: [{ url: catalogBasePath }], paths };
}
