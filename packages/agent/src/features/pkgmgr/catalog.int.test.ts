import { type CatalogServer, startCatalogServer } from '@binnacle/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';

// The catalog is a local server speaking Artifact Hub's API whose every request and answer is checked against the
// project's contract of that API and, where it can be had, Artifact Hub's published OpenAPI document too; the
// server says which on stderr (docs/adr/0023-chart-catalog-tested-against-its-openapi-document.md).
let catalog: CatalogServer;
let agent: TestAgent;
beforeAll(async () => {
  catalog = await startCatalogServer();
  agent = await startTestAgent({ config: { catalogUrl: catalog.url } });
});
afterAll(async () => {
  await agent?.close();
  await catalog?.close();
});

interface Chart {
  name: string;
  version: string;
  logoUrl?: string;
  repository: { name: string; official: boolean; verifiedPublisher: boolean };
  [field: string]: unknown;
}
interface Search {
  available: boolean;
  reason?: string;
  total: number;
  charts: Chart[];
}
const lastQuery = () => Object.fromEntries(catalog.requests.at(-1)?.query ?? []);
const names = (answer: Search) => answer.charts.map((c) => `${c.repository.name}/${c.name}`);

describe('chart catalog', () => {
  it('searches every Helm chart for the default query, nothing of other kinds, nothing deprecated', async () => {
    const answer = await agent.json<Search>('/api/pkgmgr/catalog/search');
    expect(answer.available).toBe(true);
    expect(answer.total).toBe(4);
    expect(names(answer)).toEqual([
      'ingress-nginx/ingress-nginx',
      'bitnami/nginx',
      'bitnami/redis',
      'community-charts/hello-world',
    ]);
    expect(lastQuery()).toEqual({ facets: 'false', kind: '0', sort: 'relevance', offset: '0', limit: '60' });
  });

  it("passes the words, filters and sort on in Artifact Hub's parameters", async () => {
    const official = await agent.json<Search>('/api/pkgmgr/catalog/search?query=nginx&official=true');
    expect(names(official)).toEqual(['ingress-nginx/ingress-nginx']);
    expect(lastQuery()).toMatchObject({ ts_query_web: 'nginx', official: 'true', kind: '0' });

    const verified = await agent.json<Search>('/api/pkgmgr/catalog/search?verified=true&sort=stars');
    expect(names(verified)).toEqual(['ingress-nginx/ingress-nginx', 'bitnami/nginx', 'bitnami/redis']);
    expect(lastQuery()).toMatchObject({ verified_publisher: 'true', sort: 'stars' });
    expect(lastQuery()).not.toHaveProperty('ts_query_web');

    const nginx = verified.charts.find((c) => c.name === 'nginx');
    expect(nginx).toEqual({
      packageId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c22',
      name: 'nginx',
      displayName: 'NGINX Open Source',
      version: '18.2.0',
      appVersion: '1.27.2',
      description: 'NGINX Open Source is a web server that can be also used as a reverse proxy',
      logoUrl: `${catalog.url}/image/a1b2c3d4-0000-4000-8000-000000000002`,
      // Every repository field is mapped in catalog.test.ts.
      repository: expect.objectContaining({ name: 'bitnami', verifiedPublisher: true }),
      deprecated: false,
      stars: 412,
      license: 'Apache-2.0',
      signed: true,
      security: { critical: 1, high: 3, medium: 7, low: 20, unknown: 1 },
      productionOrgsCount: 12,
      created: expect.stringMatching(/^2025-10-29T/),
    });
  });

  it('pages with offset and limit and gives the total', async () => {
    const page = await agent.json<Search>('/api/pkgmgr/catalog/search?offset=1&limit=2');
    expect(page.total).toBe(4);
    expect(names(page)).toEqual(['bitnami/nginx', 'bitnami/redis']);
    expect(lastQuery()).toMatchObject({ offset: '1', limit: '2' });
  });

  it("shows a chart's newest version with its readme and every version, pre-releases marked", async () => {
    const { chart } = await agent.json<{ chart: Chart & { versions: unknown[] } }>(
      '/api/pkgmgr/catalog/charts/community-charts/hello-world',
    );
    expect(chart.version).toBe('0.3.0');
    expect(chart.repository).toMatchObject({
      name: 'community-charts',
      official: false,
      verifiedPublisher: false,
    });
    expect(chart.readme).toBe('# hello-world\n');
    expect(chart.maintainers).toEqual([{ name: 'Jane Doe', email: 'jdoe@example.org' }]);
    expect(chart.versions).toEqual([
      { version: '0.4.0-rc.1', created: expect.any(String), prerelease: true },
      { version: '0.3.0', created: expect.any(String), prerelease: false },
      { version: '0.2.0', created: expect.any(String), prerelease: false },
    ]);
    expect(chart).not.toHaveProperty('values');
  });

  it('shows one version with its default values and values schema', async () => {
    const { chart } = await agent.json<{ chart: Chart }>('/api/pkgmgr/catalog/charts/bitnami/redis/19.6.4');
    expect(chart).toMatchObject({
      version: '19.6.4',
      appVersion: '7.2.5',
      hasValuesSchema: true,
      values: 'architecture: replication\n',
      valuesSchema: {
        type: 'object',
        properties: { architecture: { enum: ['standalone', 'replication'] } },
      },
      contentUrl: 'https://charts.bitnami.com/bitnami/redis-19.6.4.tgz',
    });
    const bare = await agent.json<{ chart: Chart; valuesError?: string }>(
      '/api/pkgmgr/catalog/charts/community-charts/hello-world/0.2.0',
    );
    expect(bare.chart.hasValuesSchema).toBe(false);
    expect(bare.chart).not.toHaveProperty('values');
    expect(bare.chart).not.toHaveProperty('valuesSchema');
    expect(bare).not.toHaveProperty('valuesError');
  });

  it('answers 404 naming a chart or version the catalog does not know', async () => {
    const chart = await agent.request('/api/pkgmgr/catalog/charts/bitnami/nope');
    expect(chart.status).toBe(404);
    expect(await chart.json()).toEqual({
      error: 'the catalog has no Helm chart bitnami/nope',
      code: 'not_found',
    });
    const version = await agent.request('/api/pkgmgr/catalog/charts/bitnami/nginx/9.9.9');
    expect(version.status).toBe(404);
    expect(await version.json()).toEqual({
      error: 'the catalog has no version 9.9.9 of bitnami/nginx (it has 18.2.0, 18.1.5, 17.3.0)',
      code: 'not_found',
    });
  });

  it('refuses bad query values and names with 400', async () => {
    for (const path of [
      '/api/pkgmgr/catalog/search?limit=101',
      '/api/pkgmgr/catalog/search?limit=0',
      '/api/pkgmgr/catalog/search?offset=-1',
      '/api/pkgmgr/catalog/search?sort=newest',
      '/api/pkgmgr/catalog/search?official=maybe',
      '/api/pkgmgr/catalog/search?kind=1',
      '/api/pkgmgr/catalog/charts/bitnami/-nginx',
    ]) {
      const response = await agent.request(path);
      expect([path, response.status]).toEqual([path, 400]);
      expect(await response.json()).toMatchObject({ code: 'invalid_request' });
    }
  });

  it('answers available:false naming the failure when the catalog fails, answers garbage or is down', async () => {
    const reasonOf = async (query: string) => {
      const response = await agent.request(`/api/pkgmgr/catalog/search?query=${query}`);
      expect(response.status).toBe(200);
      return (await response.json()) as Search;
    };
    const cached = await reasonOf('redis');
    expect(cached.available).toBe(true);

    catalog.fault('error');
    expect(await reasonOf('error')).toEqual({
      available: false,
      reason: `the catalog at ${catalog.url} answered 500 to GET /api/v1/packages/search`,
    });
    catalog.fault('garbage');
    expect(await reasonOf('garbage')).toEqual({
      available: false,
      reason: "the catalog's answer to GET /api/v1/packages/search is not JSON",
    });
    catalog.fault(undefined);

    await catalog.down();
    try {
      expect(await reasonOf('down')).toEqual({
        available: false,
        reason: `the catalog at ${catalog.url} refused the connection`,
      });
      // A search answered in the last five minutes is still answered.
      expect(await reasonOf('redis')).toEqual(cached);
    } finally {
      await catalog.up();
    }
    expect((await reasonOf('down')).available).toBe(true);
  });

  it('checks answers against the contract, and the published document where it can be had', () => {
    const both = catalog.checks.length === 2;
    expect(catalog.checks.map((c) => c.name)).toEqual(
      ['the catalog contract', "Artifact Hub's OpenAPI document"].slice(0, both ? 2 : 1),
    );
    expect(catalog.validation).toContain(both ? "and Artifact Hub's OpenAPI document" : 'contract only');
    // A wrong answer and a wrong request are caught by every check that is active.
    const wrong = { packages: [{ package_id: 'not-a-uuid', name: 'x', version: '1', stars: 'many' }] };
    for (const check of catalog.checks) {
      const search = check.match('GET', '/api/v1/packages/search');
      expect(search?.operation.id).toBe('searchPackages');
      const op = search?.operation as NonNullable<typeof search>['operation'];
      const total = { 'Pagination-Total-Count': '1' };
      expect(check.checkResponse(op, 200, 'application/json', JSON.stringify(wrong), total)).toEqual([
        expect.stringContaining("must have required property 'normalized_name'"),
      ]);
      expect(check.checkResponse(op, 404, 'application/json', '{}')).toEqual([
        `${check.name}: searchPackages answer 404: the status is not listed`,
      ]);
      expect(check.checkRequest(op, {}, new URLSearchParams('q=x'))).toEqual([
        `${check.name}: query parameter q is not in searchPackages`,
        `${check.name}: query parameter facets of searchPackages is required`,
      ]);
    }
  });

  it('saw no request or answer off its checks', () => {
    expect(catalog.requests.length).toBeGreaterThan(10);
    expect(catalog.failures).toEqual([]);
  });
});
