import { AppError, echo } from '@binnacle/common/server';
import { type Static, type TSchema, Type } from 'typebox';
import { Compile } from 'typebox/compile';

/**
 * The chart catalog (`--catalog-url`, Artifact Hub or a server speaking its API): search, a chart with its
 * versions, one version with its default values and values schema. Artifact Hub's snake_case answers are mapped
 * to our camelCase shapes, leaving out what the catalog does not say. A catalog that cannot be reached, fails
 * (5xx) or answers something that is not its API is reported as `{available: false, reason}`.
 */

/** Artifact Hub's repository kind for Helm charts (`kind=0`). */
export const helmKind = 0;
/** Artifact Hub answers at most 60 packages per search request; a larger limit takes two requests. */
export const catalogPageSize = 60;
export const maxSearchLimit = 100;
export const catalogTimeoutMs = 10_000;
const cacheTtlMs = 5 * 60_000;
const cacheMaxEntries = 500;
const cacheMaxChars = 32 << 20;
const maxAnswerChars = 8 << 20;

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
const opt = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
const AhRepository = Type.Object({
  name: Type.String(),
  display_name: opt(Type.String()),
  url: Type.String(),
  official: Type.Boolean(),
  verified_publisher: Type.Boolean(),
  organization_name: opt(Type.String()),
  user_alias: opt(Type.String()),
});
const Count = opt(Type.Number());
const packageBase = {
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
const AhSearch = Type.Object({ packages: Type.Array(Type.Object(packageBase)) });
const AhPackage = Type.Object({
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
type AhPackageBase = Static<typeof AhSearch>['packages'][number];
type AhPackage = Static<typeof AhPackage>;
const checkers = {
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
class CatalogDown extends Error {}

const given = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

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

const socketClosed = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);
const closedConnection = (error: unknown) =>
  socketClosed.has((error as { cause?: { code?: string } }).cause?.code ?? '');

/** Why a request to the catalog failed, in words (connection refused, timeout, unknown host). */
export function failureReason(base: string, error: unknown, timeoutMs = catalogTimeoutMs): string {
  const err = error as Error & { cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError' || err.name === 'AbortError')
    return `the catalog at ${base} did not answer within ${timeoutMs / 1000} s`;
  const code = err.cause?.code;
  if (code === 'ECONNREFUSED') return `the catalog at ${base} refused the connection`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `the catalog's host in ${base} could not be resolved`;
  if (code && socketClosed.has(code)) return `the catalog at ${base} closed the connection`;
  return `the catalog at ${base} could not be reached (${code ?? err.cause?.message ?? err.message})`;
}

function parse<T>(checker: { Check(value: unknown): value is T }, text: string, what: string): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CatalogDown(`the catalog's answer to ${what} is not JSON`);
  }
  if (!checker.Check(value))
    throw new CatalogDown(`the catalog's answer to ${what} is not what Artifact Hub's API describes`);
  return value;
}

/** Artifact Hub's Pagination-Total-Count header, which every search answer carries. */
function searchTotal(header: string | undefined): number {
  const total = Number(header);
  if (header === undefined || header === '' || !Number.isSafeInteger(total) || total < 0)
    throw new CatalogDown('the catalog answered a search without a valid Pagination-Total-Count');
  return total;
}

interface Answer {
  text: string;
  total?: string;
}
type Found = Answer | 'not_found';

export interface ChartCatalogOptions {
  timeoutMs?: number;
  /** The clock the cache ages by (tests move it). */
  now?: () => number;
}

/** Talks to one catalog; successful answers are kept five minutes (bounded), identical requests in flight share one. */
export class ChartCatalog {
  readonly base: string;
  readonly #timeoutMs: number;
  readonly #now: () => number;
  readonly #cache = new Map<string, { answer: Answer; until: number }>();
  readonly #inFlight = new Map<string, Promise<Found>>();
  #cachedChars = 0;

  constructor(url: string, options: ChartCatalogOptions = {}) {
    this.base = catalogBase(url);
    this.#timeoutMs = options.timeoutMs ?? catalogTimeoutMs;
    this.#now = options.now ?? Date.now;
  }

  async search(search: CatalogSearch): Promise<CatalogAnswer<{ total: number; charts: CatalogChart[] }>> {
    return this.#answer(async () => {
      let total = 0;
      const charts: CatalogChart[] = [];
      for (const [page, url] of searchUrls(this.base, search).entries()) {
        const answer = await this.#get(url, 'application/json', (a) => ({
          found: parse(checkers.search, a.text, `GET ${url.pathname}`).packages,
          total: searchTotal(a.total),
        }));
        if (!answer) throw new CatalogDown(`the catalog has no search (${url.pathname})`);
        const { found } = answer;
        if (page === 0) total = answer.total;
        charts.push(...found.map((pkg) => toChart(this.base, pkg)));
        if (found.length < Number(url.searchParams.get('limit'))) break;
      }
      return { total, charts };
    });
  }

  async chart(repo: string, chart: string): Promise<CatalogAnswer<{ chart: CatalogChartDetail }>> {
    return this.#answer(async () => {
      const pkg = await this.#package(repo, chart);
      if (!pkg) throw new AppError('not_found', `the catalog has no Helm chart ${echo(`${repo}/${chart}`)}`);
      return { chart: toChartDetail(this.base, pkg) };
    });
  }

  async version(
    repo: string,
    chart: string,
    version: string,
  ): Promise<
    CatalogAnswer<{
      chart: CatalogChartDetail & { values?: string; valuesSchema?: Record<string, unknown> };
      valuesError?: string;
    }>
  > {
    return this.#answer(async () => {
      const pkg = await this.#package(repo, chart, version);
      if (!pkg) throw await this.#noVersion(repo, chart, version);
      const detail = toChartDetail(this.base, pkg);
      // The values come from the chart's own archive, which the catalog fetches from the chart's source: that
      // may fail while the catalog answers, so such a failure is reported beside a good answer.
      const [values, valuesSchema] = await Promise.allSettled([
        this.#values(pkg),
        pkg.has_values_schema ? this.#valuesSchema(pkg) : undefined,
      ]);
      const failed = [values, valuesSchema].find((r) => r.status === 'rejected');
      if (failed && !(failed.reason instanceof CatalogDown)) throw failed.reason;
      return {
        chart: {
          ...detail,
          values: values.status === 'fulfilled' ? values.value : undefined,
          valuesSchema: valuesSchema.status === 'fulfilled' ? valuesSchema.value : undefined,
        },
        valuesError: failed ? (failed.reason as Error).message : undefined,
      };
    });
  }

  async #noVersion(repo: string, chart: string, version: string): Promise<AppError> {
    const name = echo(`${repo}/${chart}`);
    const pkg = await this.#package(repo, chart);
    if (!pkg) return new AppError('not_found', `the catalog has no Helm chart ${name}`);
    const known = toChartDetail(this.base, pkg).versions.map((v) => v.version);
    const listed = known.length > 10 ? `${known.slice(0, 10).join(', ')}, …` : known.join(', ');
    return new AppError(
      'not_found',
      `the catalog has no version ${echo(version)} of ${name} (it has ${listed})`,
    );
  }

  async #package(repo: string, chart: string, version?: string): Promise<AhPackage | undefined> {
    const url = packageUrl(this.base, repo, chart, version);
    return this.#get(url, 'application/json', (a) => parse(checkers.package, a.text, `GET ${url.pathname}`));
  }

  async #values(pkg: AhPackage): Promise<string | undefined> {
    const url = valuesUrl(this.base, pkg.package_id, pkg.version, 'values');
    return this.#get(url, 'application/yaml', (a) => a.text);
  }

  async #valuesSchema(pkg: AhPackage): Promise<Record<string, unknown> | undefined> {
    const url = valuesUrl(this.base, pkg.package_id, pkg.version, 'values-schema');
    return this.#get(url, 'application/json', (a) => parse(checkers.schema, a.text, `GET ${url.pathname}`));
  }

  /** Runs a read; a failure of the catalog becomes `{available: false, reason}`, anything else is thrown. */
  async #answer<T extends object>(read: () => Promise<T>): Promise<CatalogAnswer<T>> {
    try {
      return { available: true, ...(await read()) };
    } catch (error) {
      if (error instanceof CatalogDown) return { available: false, reason: error.message };
      throw error;
    }
  }

  /**
   * GET from the catalog (or the cache) and read the answer; undefined for a 404. Only an answer that reads
   * well is kept: one that is not the API (read throws) is asked again next time.
   */
  async #get<T>(url: URL, accept: string, read: (answer: Answer) => T): Promise<T | undefined> {
    const key = url.href;
    const cached = this.#cache.get(key);
    if (cached && cached.until > this.#now()) return read(cached.answer);
    if (cached) this.#forget(key);
    let pending = this.#inFlight.get(key);
    if (!pending) {
      pending = this.#fetch(url, accept).finally(() => this.#inFlight.delete(key));
      this.#inFlight.set(key, pending);
    }
    const answer = await pending;
    if (answer === 'not_found') return undefined;
    const value = read(answer);
    if (!this.#cache.has(key)) this.#remember(key, answer);
    return value;
  }

  async #fetch(url: URL, accept: string): Promise<Found> {
    const what = `GET ${url.pathname}`;
    const signal = AbortSignal.timeout(this.#timeoutMs);
    let response: Response | undefined;
    // A kept-alive connection the catalog closed in the meantime fails at once: a GET is tried once more.
    for (let attempt = 1; !response; attempt += 1) {
      try {
        response = await fetch(url, { headers: { accept }, signal });
      } catch (error) {
        if (attempt === 1 && closedConnection(error)) continue;
        throw new CatalogDown(failureReason(this.base, error, this.#timeoutMs));
      }
    }
    if (response.status === 404) {
      await response.body?.cancel();
      return 'not_found';
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new CatalogDown(`the catalog at ${this.base} answered ${response.status} to ${what}`);
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw new CatalogDown(failureReason(this.base, error, this.#timeoutMs));
    }
    if (text.length > maxAnswerChars)
      throw new CatalogDown(`the catalog's answer to ${what} is larger than ${maxAnswerChars >> 20} MiB`);
    return { text, total: response.headers.get('pagination-total-count') ?? undefined };
  }

  #remember(key: string, answer: Answer): void {
    this.#forget(key);
    this.#cache.set(key, { answer, until: this.#now() + cacheTtlMs });
    this.#cachedChars += answer.text.length;
    // Oldest first: a Map iterates in insertion order.
    for (const oldest of this.#cache.keys()) {
      if (this.#cache.size <= cacheMaxEntries && this.#cachedChars <= cacheMaxChars) break;
      this.#forget(oldest);
    }
  }

  #forget(key: string): void {
    const entry = this.#cache.get(key);
    if (!entry) return;
    this.#cachedChars -= entry.answer.text.length;
    this.#cache.delete(key);
  }
}
