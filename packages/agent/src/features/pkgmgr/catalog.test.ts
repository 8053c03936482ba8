import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError } from '@binnacle/common/server';
import { catalogRepositories } from '@binnacle/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ChartCatalog,
  failureReason,
  isoTime,
  packageUrl,
  searchUrls,
  toChart,
  toChartDetail,
  valuesUrl,
} from './catalog.ts';

const base = 'https://catalog.example.org';
const search = { query: '*', offset: 0, limit: 60, sort: 'relevance' as const };
const params = (url: URL) => Object.fromEntries(url.searchParams);

// A field the mapping does not know (cncf) is left out of its answer.
const repository = { ...catalogRepositories.bitnami, cncf: null };
const summary = {
  package_id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c22',
  name: 'nginx',
  normalized_name: 'nginx',
  logo_image_id: 'img-1',
  description: 'NGINX Open Source',
  version: '18.2.0',
  app_version: '1.27.2',
  license: null,
  deprecated: false,
  signed: true,
  stars: 412,
  ts: 1_760_000_000,
  repository,
  security_report_summary: { critical: 1, high: 3, medium: 7, low: 20 },
  production_organizations_count: 12,
};

describe('Artifact Hub request URLs', () => {
  it('asks for Helm charts only, without facets, and leaves the words out for `*`', () => {
    const [url, ...more] = searchUrls(base, search);
    expect(more).toEqual([]);
    expect(url?.pathname).toBe('/api/v1/packages/search');
    expect(params(url as URL)).toEqual({
      facets: 'false',
      kind: '0',
      sort: 'relevance',
      offset: '0',
      limit: '60',
    });
  });

  it("maps words and filters to Artifact Hub's parameter names", () => {
    const [url] = searchUrls(`${base}/`, {
      query: ' nginx proxy ',
      offset: 20,
      limit: 10,
      official: true,
      verified: true,
      sort: 'stars',
    });
    expect(params(url as URL)).toEqual({
      facets: 'false',
      kind: '0',
      ts_query_web: 'nginx proxy',
      official: 'true',
      verified_publisher: 'true',
      sort: 'stars',
      offset: '20',
      limit: '10',
    });
  });

  it('splits a limit above 60 (Artifact Hub’s maximum) into pages', () => {
    const urls = searchUrls(base, { ...search, offset: 5, limit: 100 });
    expect(urls.map((u) => [u.searchParams.get('offset'), u.searchParams.get('limit')])).toEqual([
      ['5', '60'],
      ['65', '40'],
    ]);
  });

  it('keeps a path prefix of the base URL and encodes path segments', () => {
    expect(packageUrl('http://host/hub/', 'my repo', 'a/b').href).toBe(
      'http://host/hub/api/v1/packages/helm/my%20repo/a%2Fb',
    );
    expect(packageUrl(base, 'bitnami', 'nginx', '1.0.0+x').pathname).toBe(
      '/api/v1/packages/helm/bitnami/nginx/1.0.0%2Bx',
    );
    expect(valuesUrl(base, 'id', '1.0.0', 'values-schema').pathname).toBe(
      '/api/v1/packages/id/1.0.0/values-schema',
    );
  });
});

describe('mapping Artifact Hub answers', () => {
  it('maps a search result to our shape, leaving out what the catalog does not say', () => {
    expect(toChart(base, summary)).toEqual({
      packageId: summary.package_id,
      name: 'nginx',
      version: '18.2.0',
      appVersion: '1.27.2',
      description: 'NGINX Open Source',
      logoUrl: `${base}/image/img-1`,
      repository: {
        name: 'bitnami',
        displayName: 'Bitnami',
        url: 'https://charts.bitnami.com/bitnami',
        official: false,
        verifiedPublisher: true,
        organizationName: 'bitnami',
      },
      deprecated: false,
      stars: 412,
      signed: true,
      security: { critical: 1, high: 3, medium: 7, low: 20 },
      productionOrgsCount: 12,
      created: '2025-10-09T08:53:20.000Z',
    });
    const bare = toChart(base, { package_id: 'p', name: 'n', version: '1', ts: 0, repository });
    expect(JSON.parse(JSON.stringify(bare))).toEqual({
      packageId: 'p',
      name: 'n',
      version: '1',
      repository: expect.any(Object),
      created: '1970-01-01T00:00:00.000Z',
    });
  });

  it('maps a package with its versions newest first, readme, links and maintainers', () => {
    const detail = toChartDetail(base, {
      ...summary,
      logo_image_id: null,
      logo_url: 'https://example.org/logo.png',
      readme: '# nginx',
      home_url: 'https://bitnami.com',
      keywords: ['nginx'],
      has_values_schema: false,
      available_versions: [
        { version: '17.3.0', ts: 10, prerelease: false },
        { version: '18.2.0', ts: 30, prerelease: false },
        { version: '18.1.5', ts: 20, prerelease: false },
      ],
      maintainers: [{ name: 'Broadcom', email: 'charts@example.org' }],
      links: [{ name: 'source', url: 'https://github.com/bitnami/charts' }],
      data: { kubeVersion: '>=1.23.0-0' },
    });
    expect(detail.logoUrl).toBe('https://example.org/logo.png');
    expect(detail.versions.map((v) => v.version)).toEqual(['18.2.0', '18.1.5', '17.3.0']);
    expect(detail.versions[0]).toEqual({
      version: '18.2.0',
      created: '1970-01-01T00:00:30.000Z',
      prerelease: false,
    });
    expect(detail).toMatchObject({
      readme: '# nginx',
      homeUrl: 'https://bitnami.com',
      keywords: ['nginx'],
      hasValuesSchema: false,
      kubeVersion: '>=1.23.0-0',
      maintainers: [{ name: 'Broadcom', email: 'charts@example.org' }],
      links: [{ name: 'source', url: 'https://github.com/bitnami/charts' }],
    });
  });

  it('leaves out a time that is not plausible', () => {
    expect(isoTime(1e18)).toBeUndefined();
    expect(isoTime(Number.NaN)).toBeUndefined();
  });

  it('names why the catalog could not be reached', () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    const unknownHost = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ENOTFOUND' } });
    const timeout = new DOMException('The operation timed out', 'TimeoutError');
    expect(failureReason(base, refused)).toBe(`the catalog at ${base} refused the connection`);
    expect(failureReason(base, unknownHost)).toBe(`the catalog's host in ${base} could not be resolved`);
    expect(failureReason(base, timeout)).toBe(`the catalog at ${base} did not answer within 10 s`);
    const closed = Object.assign(new TypeError('fetch failed'), { cause: { code: 'UND_ERR_SOCKET' } });
    expect(failureReason(base, closed)).toBe(`the catalog at ${base} closed the connection`);
  });
});

// A transport-level stand-in for the catalog, for the failures the local Artifact Hub server does not make.
type Handler = (request: IncomingMessage, response: ServerResponse) => void;
let server: Server | undefined;
let hits: string[] = [];
async function catalogAt(handler: Handler): Promise<string> {
  hits = [];
  server = createServer((request, response) => {
    hits.push(request.url ?? '');
    handler(request, response);
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
const sendJson = (response: ServerResponse, value: unknown, headers: Record<string, string> = {}) => {
  response.writeHead(200, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(value));
};
afterEach(async () => {
  const open = server;
  server = undefined;
  if (!open) return;
  open.closeAllConnections();
  await new Promise((resolve) => open.close(resolve));
});

describe('ChartCatalog', () => {
  it('reports a 5xx, an answer that is not JSON and one that is not the API as unavailable', async () => {
    let mode = 0;
    const url = await catalogAt((_request, response) => {
      mode += 1;
      if (mode === 1) {
        response.writeHead(503);
        response.end();
      } else if (mode === 2) sendJson(response, '<html>', {});
      else if (mode === 3) {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end('<html>maintenance</html>');
      } else sendJson(response, { packages: [{ name: 'no id' }] }, { 'pagination-total-count': '1' });
    });
    const catalog = new ChartCatalog(url);
    const reasons: unknown[] = [];
    for (const query of ['a', 'b', 'c', 'd']) {
      const answer = await catalog.search({ ...search, query });
      reasons.push(answer.available ? 'available' : answer.reason);
    }
    expect(reasons).toEqual([
      `the catalog at ${url} answered 503 to GET /api/v1/packages/search`,
      "the catalog's answer to GET /api/v1/packages/search is not what Artifact Hub's API describes",
      "the catalog's answer to GET /api/v1/packages/search is not JSON",
      "the catalog's answer to GET /api/v1/packages/search is not what Artifact Hub's API describes",
    ]);
  });

  it('gives up after its timeout', async () => {
    const url = await catalogAt(() => {});
    const answer = await new ChartCatalog(url, { timeoutMs: 200 }).search(search);
    expect(answer).toEqual({ available: false, reason: `the catalog at ${url} did not answer within 0.2 s` });
  });

  it('keeps good answers for five minutes, shares one request in flight, and keeps no failure', async () => {
    let mode: 'error' | 'garbage' | 'good' = 'error';
    const url = await catalogAt((_request, response) => {
      if (mode === 'error') {
        response.writeHead(500);
        response.end();
      } else if (mode === 'garbage')
        sendJson(response, { packages: 'none' }, { 'pagination-total-count': '1' });
      else
        setTimeout(() => sendJson(response, { packages: [summary] }, { 'pagination-total-count': '7' }), 20);
    });
    let now = 0;
    const catalog = new ChartCatalog(url, { now: () => now });
    expect((await catalog.search(search)).available).toBe(false);
    mode = 'garbage';
    expect((await catalog.search(search)).available).toBe(false);
    mode = 'good';
    const [a, b] = await Promise.all([catalog.search(search), catalog.search(search)]);
    expect(a).toEqual(b);
    expect(a).toMatchObject({ available: true, total: 7, charts: [{ name: 'nginx' }] });
    expect(hits).toHaveLength(3);
    now += 4 * 60_000;
    await catalog.search(search);
    expect(hits).toHaveLength(3);
    now += 2 * 60_000;
    await catalog.search(search);
    expect(hits).toHaveLength(4);
  });

  it('asks for two pages when the limit is above 60 and stops at a short page', async () => {
    const url = await catalogAt((request, response) => {
      const offset = new URL(request.url ?? '', 'http://x').searchParams.get('offset');
      const packages = offset === '0' ? Array.from({ length: 60 }, () => summary) : [summary];
      sendJson(response, { packages }, { 'pagination-total-count': '61' });
    });
    const answer = await new ChartCatalog(url).search({ ...search, limit: 100 });
    expect(answer).toMatchObject({ available: true, total: 61 });
    expect(answer.available && answer.charts).toHaveLength(61);
    expect(hits).toHaveLength(2);
  });

  it('answers a version whose values fail beside the rest, and names the versions of an unknown one', async () => {
    const pkg = {
      ...summary,
      has_values_schema: true,
      available_versions: [{ version: '18.2.0', ts: 30 }],
    };
    const url = await catalogAt((request, response) => {
      const path = request.url ?? '';
      if (path.endsWith('/values')) {
        response.writeHead(500);
        response.end();
      } else if (path.endsWith('/values-schema')) sendJson(response, { type: 'object' });
      else if (path.endsWith('/nginx/9.9.9')) {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end('{"message":""}');
      } else sendJson(response, pkg);
    });
    const catalog = new ChartCatalog(url);
    const answer = await catalog.version('bitnami', 'nginx', '18.2.0');
    expect(answer).toMatchObject({
      available: true,
      chart: { name: 'nginx', valuesSchema: { type: 'object' } },
      valuesError: `the catalog at ${url} answered 500 to GET /api/v1/packages/${summary.package_id}/18.2.0/values`,
    });
    expect(answer.available && answer.chart.values).toBeUndefined();
    const missing = await catalog.version('bitnami', 'nginx', '9.9.9').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(AppError);
    expect(missing).toMatchObject({
      code: 'not_found',
      message: 'the catalog has no version 9.9.9 of bitnami/nginx (it has 18.2.0)',
    });
  });
});
