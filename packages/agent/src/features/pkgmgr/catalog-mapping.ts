import { type Static, type TSchema, Type } from 'typebox';
import { Compile } from 'typebox/compile';

/** Artifact Hub's answers as the agent reads and checks them, their mapping to the catalog routes' shapes, and its URLs. */
/** Artifact Hub's repository kind for Helm charts (`kind=0`). */
export const helmKind = 0;
/** Artifact Hub answers at most 60 packages per search request; a larger limit takes two requests. */
export const catalogPageSize = 60;
export const maxSearchLimit = 100;
export const catalogTimeoutMs = 10_000;
export const cacheTtlMs = 5 * 60_000;
export const cacheMaxEntries = 500;
export const cacheMaxChars = 32 << 20;
export const maxAnswerChars = 8 << 20;

export type CatalogSort = 'relevance' | 'stars' | 'last_updated';
export interface CatalogSearch {
  /** Words to look for (Artifact Hub's web search syntax); `*` or empty: every chart. */
  query: string;
  offset: number;
  limit: number;
  official?: boolean;
  verified?: boolean;
  sort: CatalogSort;
}

// The parts of Artifact Hub's answers we read (its OpenAPI document: PackageSummary, HelmPackage); other
// fields pass unchecked. Optional fields may also come as null.
export const opt = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
export const AhRepository = Type.Object({
  name: Type.String(),
  display_name: opt(Type.String()),
  url: Type.String(),
  official: Type.Boolean(),
  verified_publisher: Type.Boolean(),
  organization_name: opt(Type.String()),
  user_alias: opt(Type.String()),
});
export const Count = opt(Type.Number());
export const packageBase = {
  package_id: Type.String(),
  name: Type.String(),
  version: Type.String(),
  ts: Type.Number(),
  repository: AhRepository,
  display_name: opt(Type.String()),
  description: opt(Type.String()),
  app_version: opt(Type.String()),
  license: opt(Type.String()),
  deprecated: opt(Type.Boolean()),
  signed: opt(Type.Boolean()),
  official: opt(Type.Boolean()),
  stars: opt(Type.Number()),
  logo_image_id: opt(Type.String()),
  logo_url: opt(Type.String()),
  production_organizations_count: Count,
  security_report_summary: opt(
    Type.Object({ critical: Count, high: Count, medium: Count, low: Count, unknown: Count }),
  ),
};
export const AhSearch = Type.Object({ packages: Type.Array(Type.Object(packageBase)) });
export const AhPackage = Type.Object({
  ...packageBase,
  readme: opt(Type.String()),
  home_url: opt(Type.String()),
  content_url: opt(Type.String()),
  keywords: opt(Type.Array(Type.String())),
  has_values_schema: opt(Type.Boolean()),
  available_versions: opt(
    Type.Array(Type.Object({ version: Type.String(), ts: Type.Number(), prerelease: opt(Type.Boolean()) })),
  ),
  maintainers: opt(Type.Array(Type.Object({ name: Type.String(), email: opt(Type.String()) }))),
  links: opt(Type.Array(Type.Object({ name: Type.String(), url: Type.String() }))),
  data: opt(Type.Object({ kubeVersion: opt(Type.String()), type: opt(Type.String()) })),
});
export type AhPackageBase = Static<typeof AhSearch>['packages'][number];
export type AhPackage = Static<typeof AhPackage>;
export const checkers = {
  search: Compile(AhSearch),
  package: Compile(AhPackage),
  schema: Compile(Type.Record(Type.String(), Type.Unknown())),
};

export interface CatalogChart {
  packageId: string;
  name: string;
  version: string;
  appVersion?: string;
  displayName?: string;
  description?: string;
  logoUrl?: string;
  repository: {
    name: string;
    displayName?: string;
    url: string;
    official: boolean;
    verifiedPublisher: boolean;
    organizationName?: string;
  };
  /** The package itself is marked official (Artifact Hub also marks whole repositories). */
  official?: boolean;
  deprecated?: boolean;
  stars?: number;
  license?: string;
  signed?: boolean;
  security?: { critical?: number; high?: number; medium?: number; low?: number; unknown?: number };
  productionOrgsCount?: number;
  hasValuesSchema?: boolean;
  keywords?: string[];
  /** When this version was published (RFC 3339). */
  created?: string;
}

export interface CatalogChartDetail extends CatalogChart {
  readme?: string;
  homeUrl?: string;
  /** Where the chart archive of this version is. */
  contentUrl?: string;
  kubeVersion?: string;
  versions: { version: string; created?: string; prerelease?: boolean }[];
  maintainers?: { name: string; email?: string }[];
  links?: { name: string; url: string }[];
}

export type Unavailable = { available: false; reason: string };
export type CatalogAnswer<T> = ({ available: true } & T) | Unavailable;

/** A failure of the catalog itself (not of the request): becomes `{available: false, reason}`. */
export class CatalogDown extends Error {}

export const given = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

/** Artifact Hub's `ts` is in seconds; one that is not a plausible time is left out. */
export function isoTime(seconds: number): string | undefined {
  const ms = seconds * 1000;
  return Number.isFinite(ms) && Math.abs(ms) < 8.64e15 ? new Date(ms).toISOString() : undefined;
}

/** The base URL without trailing slashes, so paths join with one. */
export const catalogBase = (url: string) => url.replace(/\/+$/, '');

/** The Artifact Hub search requests for one search: one per page of at most 60 charts. */
export function searchUrls(base: string, search: CatalogSearch): URL[] {
  const urls: URL[] = [];
  for (let done = 0; done < search.limit; done += catalogPageSize) {
    const url = new URL(`${catalogBase(base)}/api/v1/packages/search`);
    const query = url.searchParams;
    query.set('facets', 'false');
    query.set('kind', String(helmKind));
    const words = search.query.trim();
    if (words !== '' && words !== '*') query.set('ts_query_web', words);
    if (search.official) query.set('official', 'true');
    if (search.verified) query.set('verified_publisher', 'true');
    query.set('sort', search.sort);
    query.set('offset', String(search.offset + done));
    query.set('limit', String(Math.min(catalogPageSize, search.limit - done)));
    urls.push(url);
  }
  return urls;
}

/** The path of a Helm chart, or of one of its versions, in Artifact Hub's API. */
export function packageUrl(base: string, repo: string, chart: string, version?: string): URL {
  const path = [repo, chart, ...(version === undefined ? [] : [version])].map(encodeURIComponent).join('/');
  return new URL(`${catalogBase(base)}/api/v1/packages/helm/${path}`);
}

/** The default values (`values`) or the values schema (`values-schema`) of a package version. */
export function valuesUrl(
  base: string,
  packageId: string,
  version: string,
  what: 'values' | 'values-schema',
) {
  return new URL(
    `${catalogBase(base)}/api/v1/packages/${encodeURIComponent(packageId)}/${encodeURIComponent(version)}/${what}`,
  );
}

/** A search result or a package as our shape (the fields every answer has). */
export function toChart(base: string, pkg: AhPackageBase): CatalogChart {
  const repo = pkg.repository;
  const security = given(pkg.security_report_summary);
  const logoId = given(pkg.logo_image_id);
  return {
    packageId: pkg.package_id,
    name: pkg.name,
    version: pkg.version,
    appVersion: given(pkg.app_version),
    displayName: given(pkg.display_name),
    description: given(pkg.description),
    logoUrl: logoId ? `${catalogBase(base)}/image/${encodeURIComponent(logoId)}` : given(pkg.logo_url),
    repository: {
      name: repo.name,
      displayName: given(repo.display_name),
      url: repo.url,
      official: repo.official,
      verifiedPublisher: repo.verified_publisher,
      organizationName: given(repo.organization_name),
    },
    official: given(pkg.official),
    deprecated: given(pkg.deprecated),
    stars: given(pkg.stars),
    license: given(pkg.license),
    signed: given(pkg.signed),
    security: security && {
      critical: given(security.critical),
      high: given(security.high),
      medium: given(security.medium),
      low: given(security.low),
      unknown: given(security.unknown),
    },
    productionOrgsCount: given(pkg.production_organizations_count),
    created: isoTime(pkg.ts),
  };
}

/** A package's details as our shape: the summary fields plus readme, links, maintainers and versions. */
export function toChartDetail(base: string, pkg: AhPackage): CatalogChartDetail {
  const versions = [...(given(pkg.available_versions) ?? [])].sort(
    (a, b) => b.ts - a.ts || b.version.localeCompare(a.version, 'en', { numeric: true }),
  );
  return {
    ...toChart(base, pkg),
    hasValuesSchema: given(pkg.has_values_schema),
    keywords: given(pkg.keywords),
    readme: given(pkg.readme),
    homeUrl: given(pkg.home_url),
    contentUrl: given(pkg.content_url),
    kubeVersion: given(given(pkg.data)?.kubeVersion),
    versions: versions.map((v) => ({
      version: v.version,
      created: isoTime(v.ts),
      prerelease: given(v.prerelease),
    })),
    maintainers: given(pkg.maintainers)?.map((m) => ({ name: m.name, email: given(m.email) })),
    links: given(pkg.links)?.map((l) => ({ name: l.name, url: l.url })),
  };
}
