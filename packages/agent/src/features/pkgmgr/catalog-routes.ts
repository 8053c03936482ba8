import { errorResponses, Query } from '@binnacle/common/server';
import { type TSchema, Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { type CatalogSort, ChartCatalog, catalogPageSize, maxSearchLimit } from './catalog.ts';
import type { PkgmgrContext } from './module.ts';

const tags = ['pkgmgr'];

// Names as Artifact Hub and Helm write them (letters, digits, dots, dashes, underscores); versions add `+`.
const NameParam = Type.String({ minLength: 1, maxLength: 253, pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' });
const VersionParam = Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9][A-Za-z0-9.+_-]*$' });
const ChartParams = Type.Object({ repo: NameParam, chart: NameParam });
const VersionParams = Type.Object({ repo: NameParam, chart: NameParam, version: VersionParam });

const Count = Type.Optional(Type.Number());
const chartFields = {
  packageId: Type.String({ description: "the catalog's id of the chart" }),
  name: Type.String(),
  version: Type.String(),
  appVersion: Type.Optional(Type.String()),
  displayName: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  logoUrl: Type.Optional(Type.String()),
  repository: Type.Object({
    name: Type.String(),
    displayName: Type.Optional(Type.String()),
    url: Type.String({ description: 'the chart repository helm installs from' }),
    official: Type.Boolean(),
    verifiedPublisher: Type.Boolean(),
    organizationName: Type.Optional(Type.String()),
  }),
  official: Type.Optional(Type.Boolean({ description: 'the chart itself is marked official' })),
  deprecated: Type.Optional(Type.Boolean()),
  stars: Count,
  license: Type.Optional(Type.String()),
  signed: Type.Optional(Type.Boolean()),
  security: Type.Optional(
    Type.Object(
      { critical: Count, high: Count, medium: Count, low: Count, unknown: Count },
      { description: "vulnerabilities in the chart's images, by severity, from the catalog's scanner" },
    ),
  ),
  productionOrgsCount: Type.Optional(Type.Number()),
  hasValuesSchema: Type.Optional(Type.Boolean()),
  keywords: Type.Optional(Type.Array(Type.String())),
  created: Type.Optional(Type.String({ description: 'when this version was published (RFC 3339)' })),
};
const detailFields = {
  ...chartFields,
  readme: Type.Optional(Type.String()),
  homeUrl: Type.Optional(Type.String()),
  contentUrl: Type.Optional(Type.String({ description: "where this version's chart archive is" })),
  kubeVersion: Type.Optional(Type.String()),
  versions: Type.Array(
    Type.Object({
      version: Type.String(),
      created: Type.Optional(Type.String()),
      prerelease: Type.Optional(Type.Boolean()),
    }),
    { description: 'every version the catalog lists, newest first' },
  ),
  maintainers: Type.Optional(
    Type.Array(Type.Object({ name: Type.String(), email: Type.Optional(Type.String()) })),
  ),
  links: Type.Optional(Type.Array(Type.Object({ name: Type.String(), url: Type.String() }))),
};
const Unavailable = Type.Object({
  available: Type.Literal(false),
  reason: Type.String({ description: 'what failed: the catalog unreachable, timed out, 5xx, not its API' }),
});
const answer = (fields: Record<string, TSchema>) =>
  Type.Union([Type.Object({ available: Type.Literal(true), ...fields }), Unavailable]);

const SearchQuery = Query({
  query: Type.Optional(
    Type.String({
      maxLength: 256,
      default: '*',
      description: 'words to look for; `*` (default): every chart',
    }),
  ),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: maxSearchLimit,
      default: catalogPageSize,
      description: `charts to return (at most ${maxSearchLimit})`,
    }),
  ),
  official: Type.Optional(Type.Boolean({ description: 'only official charts or repositories' })),
  verified: Type.Optional(Type.Boolean({ description: 'only repositories of verified publishers' })),
  sort: Type.Optional(Type.Enum(['relevance', 'stars', 'last_updated'], { default: 'relevance' })),
});

/** The chart catalog (`--catalog-url`): search, a chart, one version with its default values and schema. */
export function catalogRoutes(app: App, ctx: PkgmgrContext): void {
  const catalog = new ChartCatalog(ctx.config.catalogUrl);

  app.get(
    '/api/pkgmgr/catalog/search',
    {
      config: callerAware,
      schema: {
        tags,
        summary:
          'Search the chart catalog (Helm charts only); {available: false, reason} when it cannot answer',
        querystring: SearchQuery,
        response: {
          200: answer({ total: Type.Integer(), charts: Type.Array(Type.Object(chartFields)) }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const q = request.query;
      return catalog.search({
        query: q.query ?? '*',
        offset: q.offset ?? 0,
        limit: q.limit ?? catalogPageSize,
        official: q.official,
        verified: q.verified,
        sort: (q.sort ?? 'relevance') as CatalogSort,
      });
    },
  );

  app.get(
    '/api/pkgmgr/catalog/charts/:repo/:chart',
    {
      config: callerAware,
      schema: {
        tags,
        summary: "A catalog chart's newest version, its readme and every version the catalog lists",
        params: ChartParams,
        querystring: Query({}),
        response: { 200: answer({ chart: Type.Object(detailFields) }), ...errorResponses },
      },
    },
    async (request) => catalog.chart(request.params.repo, request.params.chart),
  );

  app.get(
    '/api/pkgmgr/catalog/charts/:repo/:chart/:version',
    {
      config: callerAware,
      schema: {
        tags,
        summary: 'One version of a catalog chart with its default values (YAML) and values schema',
        params: VersionParams,
        querystring: Query({}),
        response: {
          200: answer({
            chart: Type.Object({
              ...detailFields,
              values: Type.Optional(Type.String({ description: "the chart's values.yaml" })),
              valuesSchema: Type.Optional(Type.Object({}, { additionalProperties: true })),
            }),
            valuesError: Type.Optional(
              Type.String({
                description: 'why the values or their schema could not be read (the rest is there)',
              }),
            ),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { repo, chart, version } = request.params;
      return catalog.version(repo, chart, version);
    },
  );
}
