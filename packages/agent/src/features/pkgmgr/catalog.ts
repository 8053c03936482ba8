import { AppError, echo } from '@binnacle/common/server';
import {
  type AhPackage,
  type CatalogAnswer,
  type CatalogChart,
  type CatalogChartDetail,
  CatalogDown,
  type CatalogSearch,
  cacheMaxChars,
  cacheMaxEntries,
  cacheTtlMs,
  catalogBase,
  catalogTimeoutMs,
  checkers,
  maxAnswerChars,
  packageUrl,
  searchUrls,
  toChart,
  toChartDetail,
  valuesUrl,
} from './catalog-mapping.ts';

export * from './catalog-mapping.ts';

/**
 * The chart catalog (`--catalog-url`, Artifact Hub or a server speaking its API): search, a chart with its
 * versions, one version with its default values and values schema. Artifact Hub's snake_case answers are mapped
 * to our camelCase shapes, leaving out what the catalog does not say. A catalog that cannot be reached, fails
 * (5xx) or answers something that is not its API is reported as `{available: false, reason}`.
 */

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
