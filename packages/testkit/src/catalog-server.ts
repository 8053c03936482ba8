import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { catalogContract, contractAsOpenApi } from './catalog-contract.ts';
import { type CatalogPackage, type CatalogVersion, catalogPackages } from './catalog-data.ts';
import {
  findArtifactHubOpenApi,
  OpenApiDocument,
  type OpenApiLookup,
  type Operation,
} from './catalog-openapi.ts';

/** The Artifact Hub operations the local catalog serves (operationIds of its OpenAPI document). */
export const catalogOperations: readonly string[] = catalogContract.map((op) => op.id);

export interface CatalogRequest {
  operation: string;
  path: string;
  query: URLSearchParams;
}

export interface CatalogServer {
  /** Base URL, as `--catalog-url` takes it. */
  url: string;
  /** Every request served, in order. */
  requests: CatalogRequest[];
  /** Requests and answers that do not match one of the `checks`; a test asserts there are none. */
  failures: string[];
  /**
   * What every request and answer is checked against: the catalog contract (catalog-contract.ts) always, then
   * Artifact Hub's published OpenAPI document where test/catalog/openapi.sh can provide it.
   */
  checks: readonly OpenApiDocument[];
  /** Those checks in words, as the server wrote them once to stderr. */
  validation: string;
  /** Close the port (connections refused) until `up()`. */
  down(): Promise<void>;
  up(): Promise<void>;
  /** From now on answer every request with a 500 (as documented) or with a page that is not the API. */
  fault(mode: 'error' | 'garbage' | undefined): void;
  close(): Promise<void>;
}

interface Answer {
  status: number;
  type?: string;
  body: string;
  headers?: Record<string, string>;
}

const json = (status: number, value: unknown, headers?: Record<string, string>): Answer => ({
  status,
  type: 'application/json',
  body: JSON.stringify(value),
  headers,
});
// Artifact Hub's error body: `{"message": …}`, empty for a 404.
const notFound = () => json(404, { message: '' });
const badRequest = (message: string) => json(400, { message });

const helm = (p: CatalogPackage) => p.repository.kind === 0;
/** The version Artifact Hub shows first: the newest that is not a pre-release. */
const latest = (p: CatalogPackage) =>
  p.versions.find((v) => !v.prerelease) ?? (p.versions[0] as CatalogVersion);

function summary(p: CatalogPackage, v: CatalogVersion) {
  return {
    package_id: p.package_id,
    name: p.name,
    normalized_name: p.name,
    ...(p.display_name ? { display_name: p.display_name } : {}),
    ...(p.logo_image_id ? { logo_image_id: p.logo_image_id } : {}),
    description: p.description,
    version: v.version,
    app_version: v.app_version,
    ...(p.license ? { license: p.license } : {}),
    deprecated: p.deprecated ?? false,
    signed: p.signed ?? false,
    stars: p.stars,
    ts: v.ts,
    repository: p.repository,
    ...(p.security_report_summary ? { security_report_summary: p.security_report_summary } : {}),
    ...(p.production_organizations_count === undefined
      ? {}
      : { production_organizations_count: p.production_organizations_count }),
  };
}

function details(p: CatalogPackage, v: CatalogVersion) {
  return {
    ...summary(p, v),
    latest_version: latest(p).version,
    available_versions: p.versions.map((x) => ({
      version: x.version,
      contains_security_updates: false,
      prerelease: x.prerelease ?? false,
      ts: x.ts,
    })),
    has_values_schema: v.valuesSchema !== undefined,
    has_changelog: false,
    contains_security_updates: false,
    prerelease: v.prerelease ?? false,
    readme: p.readme,
    keywords: p.keywords,
    maintainers: p.maintainers,
    links: p.links,
    ...(p.home_url ? { home_url: p.home_url } : {}),
    content_url: `${p.repository.url}/${p.name}-${v.version}.tgz`,
    data: { apiVersion: 'v2', type: 'application' },
  };
}

/** Artifact Hub's search, over the data set: its filters, sorts and pagination (at most 60 per page). */
function search(query: URLSearchParams): Answer {
  const limit = Number(query.get('limit') ?? 20);
  const offset = Number(query.get('offset') ?? 0);
  if (!Number.isInteger(limit) || limit <= 0 || limit > 60) return badRequest('invalid limit (0 < l <= 60)');
  if (!Number.isInteger(offset) || offset < 0) return badRequest('invalid offset (o >= 0)');
  const kinds = query.getAll('kind').map(Number);
  const words = (query.get('ts_query_web') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const text = (p: CatalogPackage) => [p.name, p.display_name ?? '', p.description, ...p.keywords].join(' ');
  const score = (p: CatalogPackage) =>
    words.reduce(
      (s, w) => s + (p.name.includes(w) ? 3 : 0) + (p.keywords.some((k) => k.includes(w)) ? 2 : 0) + 1,
      0,
    );
  const found = catalogPackages.filter(
    (p) =>
      (kinds.length === 0 || kinds.includes(p.repository.kind)) &&
      (query.get('deprecated') === 'true' || !p.deprecated) &&
      (query.get('official') !== 'true' || p.repository.official) &&
      (query.get('verified_publisher') !== 'true' || p.repository.verified_publisher) &&
      words.every((w) => text(p).toLowerCase().includes(w)),
  );
  const sort = query.get('sort') ?? 'relevance';
  if (!['relevance', 'stars', 'last_updated'].includes(sort))
    return badRequest('invalid sort (relevance|stars|last_updated)');
  const order: Record<string, (a: CatalogPackage, b: CatalogPackage) => number> = {
    relevance: (a, b) => score(b) - score(a) || b.stars - a.stars,
    stars: (a, b) => b.stars - a.stars,
    last_updated: (a, b) => latest(b).ts - latest(a).ts,
  };
  found.sort(
    (a, b) =>
      (order[sort] as (x: CatalogPackage, y: CatalogPackage) => number)(a, b) || a.name.localeCompare(b.name),
  );
  const page = found.slice(offset, offset + limit).map((p) => summary(p, latest(p)));
  return json(200, { packages: page }, { 'Pagination-Total-Count': String(found.length) });
}

function serve(operation: string, params: Record<string, string>, query: URLSearchParams): Answer {
  if (operation === 'searchPackages') return search(query);
  if (operation === 'getHelmPackageDetails' || operation === 'getHelmPackageVersionDetails') {
    const p = catalogPackages.find(
      (x) => helm(x) && x.repository.name === params.repoName && x.name === params.packageName,
    );
    const v =
      p && (params.version === undefined ? latest(p) : p.versions.find((x) => x.version === params.version));
    return p && v ? json(200, details(p, v)) : notFound();
  }
  const p = catalogPackages.find((x) => x.package_id === params.packageID);
  const v = p?.versions.find((x) => x.version === params.version);
  if (operation === 'getChartValues')
    return v?.values === undefined ? notFound() : { status: 200, type: 'application/yaml', body: v.values };
  return v?.valuesSchema === undefined ? notFound() : json(200, v.valuesSchema);
}

const said = new Set<string>();
/** Writes a line to stderr once per process. */
function sayOnce(line: string): void {
  if (said.has(line)) return;
  said.add(line);
  process.stderr.write(`${line}\n`);
}

/**
 * A local chart catalog speaking Artifact Hub's API (the operations in `catalogOperations`) on 127.0.0.1, over
 * the data set in catalog-data.ts. Every request and every answer is checked against the catalog contract and,
 * where it can be had, Artifact Hub's published OpenAPI document (`openApiPath`, default: what
 * test/catalog/openapi.sh provides; `false`: the contract only): a request off either is answered 400, an answer
 * off either is replaced by a 500 naming the problems, and both are recorded in `failures`. Only the answers of
 * `fault('garbage')` are not checked. Which checks are active is written once to stderr and kept in `validation`.
 */
export async function startCatalogServer(
  options: { openApiPath?: string | false } = {},
): Promise<CatalogServer> {
  const contract = OpenApiDocument.from('the catalog contract', contractAsOpenApi(), catalogOperations);
  const found: OpenApiLookup =
    options.openApiPath === undefined
      ? await findArtifactHubOpenApi()
      : options.openApiPath === false
        ? { missing: 'the contract only was asked for' }
        : { path: options.openApiPath };
  const checks =
    'path' in found ? [contract, await OpenApiDocument.load(found.path, catalogOperations)] : [contract];
  const validation =
    'path' in found
      ? `the local chart catalog checks every request and answer against the catalog contract and Artifact Hub's OpenAPI document (${found.path})`
      : `the local chart catalog checks every request and answer against the catalog contract only; Artifact Hub's OpenAPI document cannot be had here: ${found.missing}`;
  sayOnce(validation);
  const requests: CatalogRequest[] = [];
  const failures: string[] = [];
  let faultMode: 'error' | 'garbage' | undefined;

  const answerOf = (request: IncomingMessage): Answer => {
    const url = new URL(request.url ?? '/', 'http://catalog');
    const matched = contract.match(request.method ?? 'GET', url.pathname);
    if (!matched) {
      failures.push(`no operation of the catalog contract serves ${request.method} ${url.pathname}`);
      return notFound();
    }
    const { operation, params } = matched;
    // The published document has the same operations at the same paths (catalog-openapi.test.ts checks).
    const against = checks.map((check) => ({ check, op: check.operation(operation.id) as Operation }));
    requests.push({ operation: operation.id, path: url.pathname, query: url.searchParams });
    const problems = against.flatMap(({ check, op }) => check.checkRequest(op, params, url.searchParams));
    failures.push(...problems);
    const answer =
      problems.length > 0
        ? badRequest(problems.join('; '))
        : faultMode === 'error'
          ? json(500, { message: 'simulated failure' })
          : serve(operation.id, params, url.searchParams);
    const wrong = against.flatMap(({ check, op }) =>
      check.checkResponse(op, answer.status, answer.type, answer.body, answer.headers),
    );
    if (wrong.length === 0) return answer;
    failures.push(...wrong);
    return json(500, { message: `answer off its checks: ${wrong.join('; ')}` });
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const answer: Answer =
      faultMode === 'garbage'
        ? { status: 200, type: 'text/html', body: '<html><body>maintenance</body></html>' }
        : answerOf(request);
    response.writeHead(answer.status, {
      ...(answer.type ? { 'content-type': answer.type } : {}),
      ...answer.headers,
    });
    response.end(answer.body);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failures,
    checks,
    validation,
    down: stop,
    up: () => listen(port),
    fault: (mode) => {
      faultMode = mode;
    },
    close: () => (server.listening ? stop() : Promise.resolve()),
  };
}
